#!/usr/bin/env node
// Hook entries written by earlier versions of hook-notify run this file: it runs bin/hook-notify.cjs, the
// program, which a hook entry now names itself (node starts a .cjs file without looking up its
// package scope, and loading a second file costs ~1 M instructions). `hook-notify install`
// rewrites an entry that still names this file, and `doctor` says which ones do.
"use strict";

require("./hook-notify.cjs").main();
