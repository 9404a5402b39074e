// The header of dist/commands.cjs's code cache (bin/CODE-CACHE.md): a first line naming the
// kinds of command whose runs the cache holds ("kinds help,doctor"), padded with spaces to a
// multiple of 8 bytes (V8 copies cached data that is not aligned), then V8's data. A run of a
// kind the cache does not name writes a new cache after its work: what it loaded from the cache
// and what it compiled. Only commands load this file; a hook run never does.
"use strict";

const LINE = /^kinds ((?:[a-z][a-z-]{0,31})(?:,[a-z][a-z-]{0,31})*)? *\n/;
const KIND = /^[a-z][a-z-]{0,31}$/;

// V8's part and the kinds the line names; without the line (an older loader's, not ours) no
// cache is used, and the run writes its own.
function split(data) {
  const match = data && LINE.exec(data.subarray(0, 1024).toString("latin1"));
  if (!match) return { cachedData: undefined, said: undefined };
  return { cachedData: data.subarray(match[0].length), said: match[1]?.split(",") ?? [] };
}

// The header to write after the run, or undefined when the cache read already holds its kind
// (`said`: the kinds of the cache V8 took; undefined when it took none). The kind comes from the
// bundle (src/commands/ran-kind.ts): none after a usage mistake.
function next(exports, said) {
  const kind = exports.ranKind?.();
  const known = KIND.test(kind ?? "");
  if (said !== undefined && (!known || said.includes(kind))) return undefined;
  const line = `kinds ${[...(said ?? []), ...(known ? [kind] : [])].join(",")}`;
  return Buffer.from(`${line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1)}\n`, "latin1");
}

module.exports = { split, next };
