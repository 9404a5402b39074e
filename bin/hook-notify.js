#!/usr/bin/env node
// Thin shim: the real program is bundled in dist/ (npm run build). dist/hook.cjs decides first: a
// hook run that a live worker can take is handed to it there; everything else loads dist/cli.cjs.
// Both are compiled with a V8 code cache (see code-cache.js). CommonJS (see bin/package.json), so
// a hook run never starts the ES module loader.
"use strict";

function missing(error, name) {
  const code = error && error.code;
  if ((code === "MODULE_NOT_FOUND" || code === "ENOENT") && String(error.message).includes(name)) {
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
  // Its cache is kept from a run that handed its event over (it ran the whole fast path).
  hook = require("./code-cache.js").requireCached(
    require.resolve("../dist/hook.cjs"),
    process.env,
    (exports) => exports.handedOver?.() === true,
  );
} catch (error) {
  missing(error, "hook.cjs");
}
hook.main(process.argv.slice(2), cli);
