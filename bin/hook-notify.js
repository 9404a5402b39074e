#!/usr/bin/env node
// Thin shim: the real program is bundled in dist/ (npm run build). dist/hook.cjs decides first: a
// hook run that a live worker can take is handed to it there (15 KB, required as is: loading the
// code-cache machinery costs it more than compiling it); everything else loads dist/cli.cjs,
// compiled with a V8 code cache (see code-cache.js). CommonJS (see bin/package.json), so a hook
// run never starts the ES module loader.
"use strict";

function missing(error, name) {
  if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes(name)) {
    process.stderr.write(
      "hook-notify: dist/ is missing: run `npm run build` in the hook-notify folder.\n",
    );
    process.exit(1);
  }
  throw error;
}

function cli() {
  try {
    return require("./code-cache.js").requireCached(require.resolve("../dist/cli.cjs"));
  } catch (error) {
    return missing(error, "cli.cjs");
  }
}

let hook;
try {
  hook = require("../dist/hook.cjs");
} catch (error) {
  missing(error, "hook.cjs");
}
hook.main(process.argv.slice(2), cli);
