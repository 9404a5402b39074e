#!/usr/bin/env node
// Thin shim: the real program is the bundled dist/cli.cjs (npm run build). CommonJS (see
// bin/package.json), so a hook run never starts the ES module loader; compiled with a V8 code
// cache (see code-cache.js).
"use strict";

const { requireCached } = require("./code-cache.js");

let cli;
try {
  cli = requireCached(require.resolve("../dist/cli.cjs"));
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes("cli.cjs")) {
    process.stderr.write(
      "hook-notify: dist/ is missing: run `npm run build` in the hook-notify folder.\n",
    );
    process.exit(1);
  }
  throw error;
}
cli.main(process.argv.slice(2));
