#!/usr/bin/env node
// Thin shim: the real program is bundled in dist/ (npm run build). dist/hook.cjs decides first: a
// hook run that a live worker can take is handed to it there; everything else loads dist/cli.cjs.
// CommonJS (see bin/package.json), so a hook run never starts the ES module loader; both bundles
// are compiled with a V8 code cache (see code-cache.js).
"use strict";

const { requireCached } = require("./code-cache.js");

function load(name) {
  try {
    return requireCached(require.resolve(`../dist/${name}`));
  } catch (error) {
    if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes(name)) {
      process.stderr.write(
        "hook-notify: dist/ is missing: run `npm run build` in the hook-notify folder.\n",
      );
      process.exit(1);
    }
    throw error;
  }
}

load("hook.cjs").main(process.argv.slice(2), () => load("cli.cjs"));
