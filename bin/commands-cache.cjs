// The header of dist/commands.cjs's code cache: "kinds help,doctor", padded to a multiple of 8
// bytes, then V8's data; a command of a kind it does not name writes it again (bin/CODE-CACHE.md).
"use strict";

const LINE = /^kinds ((?:[a-z][a-z-]{0,31})(?:,[a-z][a-z-]{0,31})*)? *\n/;
const KIND = /^[a-z][a-z-]{0,31}$/;

// V8's part and the kinds named; no line: no cache (the run writes its own).
function split(data) {
  const match = data && LINE.exec(data.subarray(0, 1024).toString("latin1"));
  if (!match) return { cachedData: undefined, said: undefined };
  return { cachedData: data.subarray(match[0].length), said: match[1]?.split(",") ?? [] };
}

// The header to write after the run; undefined when the cache V8 took (`said`) has its kind.
function next(exports, said) {
  const kind = exports.ranKind?.();
  const known = KIND.test(kind ?? "");
  if (said !== undefined && (!known || said.includes(kind))) return undefined;
  const line = `kinds ${[...(said ?? []), ...(known ? [kind] : [])].join(",")}`;
  return Buffer.from(`${line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1)}\n`, "latin1");
}

module.exports = { split, next };
