// The live worker's offer to run whole hook events (issue #19): outbox/fast.json, written by a
// worker that stays between hooks. A hook that finds it valid writes the raw event to events/ and
// returns (see inbox.ts and fast-hook.ts) instead of loading and running the pipeline itself.
//
// "Valid" means the worker would do what the hook would do:
// - the same build (a lingering worker may run the code of before an upgrade);
// - the same user config file, unchanged since the worker loaded it (path, size, mtime, inode);
// - the same values for every ${NAME} that config uses: the worker expands them from its own
//   environment, so the stamp holds a salted FNV-1a fingerprint of its values, never the values.
// It also carries what the hook needs to keep secrets off the disk without knowing them: for each
// piece of a configured secret (every encoding scrub masks, redact.ts), its length and two keyed
// polynomial hashes. The hook masks each stretch of the event text whose hashes match before the
// event is written (the worker scrubs the parsed event again, as the in-process pipeline does).
// Nothing here is a secret: a fingerprint can confirm a guess, never give the value back.
import { renameSync, statSync, writeFileSync } from "node:fs";
import { fnv1a64 } from "../fnv1a.js";
import { readBoundedSync } from "../read-bounded.js";
import { MASK } from "../redact.js";

/** A config file as stat saw it, or "absent" (the built-in default applies). */
export type FileState = { size: number; mtimeMs: number; ino: number } | "absent";

export interface FastStamp {
  version: 1;
  build: string;
  /** The worker that wrote it. */
  pid: number;
  /** Its FIFO: a hook that can open it for writing knows the worker is alive, and wakes it. */
  fifo: string;
  config: { path: string; state: FileState };
  /** The variables the config uses, and a fingerprint of their values where the worker runs. */
  env: { names: string[]; salt: string; print: string };
  mask: SecretMask;
}

/** Per secret piece [length, hash of its first `width` characters, hash 1, hash 2 of all of it]
 * (hash 1 and the anchor under the first base, hash 2 under the second). */
export interface SecretMask {
  bases: [number, number];
  width: number;
  items: [number, number, number, number][];
  /** False when no piece holds white space: only runs without any need a look. A stamp
   * without it (an older build's) is read as true. */
  spaced?: boolean;
}

/** Shorter pieces would mask ordinary words (redact.ts masks nothing shorter either). */
const MIN_PIECE = 4;
/** The longest anchor: 8 characters of a piece say little more than its whole hash does. */
const MAX_ANCHOR = 8;
/** ${NAME} as expand-env.ts reads it. */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

// The config file now; undefined when it cannot be told (then the hook runs the pipeline itself).
export function fileState(path: string): FileState | undefined {
  try {
    const info = statSync(path);
    return { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : undefined;
  }
}

function sameState(a: FileState | undefined, b: FileState): boolean {
  if (a === undefined) return false;
  if (a === "absent" || b === "absent") return a === b;
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** The salted fingerprint of the variables' values (unset and empty differ; both are "missing"). */
export function envPrint(
  names: readonly string[],
  salt: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return fnv1a64([salt, ...names.map((name) => `${name}=${env[name] ?? "\u0000"}`)].join("\u0000"));
}

/** The names of the variables a config file's text uses (sorted, once each). */
export function variablesIn(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((match) => match[1] ?? ""))].sort();
}

export interface HookView {
  build: string;
  /** The user config path the hook would load (userConfigPath). */
  configPath: string;
  env: Readonly<Record<string, string | undefined>>;
}

// True when the worker that wrote the stamp runs this event as the hook would.
export function stampHolds(stamp: FastStamp, hook: HookView): boolean {
  return (
    stamp.build === hook.build &&
    stamp.config.path === hook.configPath &&
    sameState(fileState(hook.configPath), stamp.config.state) &&
    // A config without ${NAME} has no variables to compare (and hashing the salt alone costs
    // the hook ~0.08 M instructions).
    (stamp.env.names.length === 0 ||
      envPrint(stamp.env.names, stamp.env.salt, hook.env) === stamp.env.print)
  );
}

// The stamp, checked by hand (no zod on the hook path); undefined if missing or malformed.
export function readStamp(path: string): FastStamp | undefined {
  try {
    const raw = JSON.parse(
      readBoundedSync(path, { maxBytes: 256 * 1024, noFollow: true }),
    ) as unknown;
    return isStamp(raw) ? raw : undefined;
  } catch {
    return undefined;
  }
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === "object" && value !== null;
const isInts = (value: unknown, length: number): value is number[] =>
  Array.isArray(value) && value.length === length && value.every((n) => Number.isInteger(n));

function isStamp(raw: unknown): raw is FastStamp {
  if (!isObject(raw) || raw.version !== 1) return false;
  const { config, env, mask } = raw;
  if (typeof raw.build !== "string" || typeof raw.pid !== "number") return false;
  if (typeof raw.fifo !== "string" || !isObject(config) || typeof config.path !== "string")
    return false;
  const state = config.state;
  if (state !== "absent" && !(isObject(state) && typeof state.size === "number")) return false;
  if (!isObject(env) || typeof env.salt !== "string" || typeof env.print !== "string") return false;
  if (!Array.isArray(env.names) || !env.names.every((name) => typeof name === "string"))
    return false;
  if (!isObject(mask) || !isInts(mask.bases, 2) || !mask.bases.every(isBase)) return false;
  if (mask.spaced !== undefined && typeof mask.spaced !== "boolean") return false;
  const width = mask.width;
  return (
    typeof width === "number" &&
    Number.isInteger(width) &&
    width >= MIN_PIECE &&
    Array.isArray(mask.items) &&
    mask.items.every((item) => isInts(item, 4) && (item[0] as number) >= width)
  );
}

const isBase = (n: unknown): boolean =>
  Number.isInteger(n) && (n as number) > 1 << 16 && (n as number) < 1 << 30;

// Written whole (temp file + rename); not fsync'd: a stamp lost in a crash only means that the
// next hook runs the pipeline itself.
export function writeStamp(path: string, stamp: FastStamp): void {
  const temp = `${path}.${String(process.pid)}.tmp`;
  writeFileSync(temp, JSON.stringify(stamp), { mode: 0o600 });
  renameSync(temp, path);
}

// ---- masking by fingerprint ----------------------------------------------------------------------

/** Two random odd bases in (2^16, 2^30) (what makes the hashes keyed). */
export function randomBases(random: () => number): [number, number] {
  const base = () => ((1 << 16) + Math.floor(random() * ((1 << 30) - (1 << 17)))) | 1;
  return [base(), base()];
}

// The mask of the given secret pieces (scrub's parts: every encoding), plus their "\/" form (a
// JSON writer may escape slashes). The anchor width is the shortest piece's length, at most 8:
// every piece is found through its first `width` characters in one pass over the text.
export function maskOf(pieces: readonly string[], bases: [number, number]): SecretMask {
  const all = new Set<string>();
  for (const piece of pieces) {
    if (piece.length < MIN_PIECE) continue;
    all.add(piece);
    if (piece.includes("/")) all.add(piece.replaceAll("/", "\\/"));
  }
  const width = Math.min(MAX_ANCHOR, ...[...all].map((piece) => piece.length));
  const spaced = [...all].some((piece) => /\s/.test(piece));
  const items = [...all].map((piece): [number, number, number, number] => [
    piece.length,
    hashOf(piece.slice(0, width), bases[0]),
    hashOf(piece, bases[0]),
    hashOf(piece, bases[1]),
  ]);
  return { bases, width, items, spaced };
}

// Polynomial hashes modulo 2^32 (Math.imul, | 0): int32 all the way, which V8's interpreter keeps
// in small integers; a double would allocate at every step.
// Case-folded (ASCII letters), as scrub's case-insensitive match (redact.ts): an upper-case copy
// of a hex token is the token.
function hashOf(text: string, base: number, from = 0, to = text.length): number {
  let h = 0;
  for (let i = from; i < to; i++) h = (Math.imul(h, base) + fold(text.charCodeAt(i))) | 0;
  return h;
}

// A-Z as a-z; every other code unit as it is.
function fold(code: number): number {
  return code - 65 < 26 && code >= 65 ? code + 32 : code;
}

function power(base: number, exponent: number): number {
  let result = 1;
  for (let i = 0; i < exponent; i++) result = Math.imul(result, base);
  return result;
}

// Every stretch of `text` that is a secret piece (its length, anchor and both hashes match)
// becomes "***" (Rabin-Karp: a rolling hash of `width` characters, one anchor look-up per
// position, both whole hashes only where an anchor matched). A collision masks a harmless
// stretch. When no piece holds white space, a piece lies inside one run without any, and only
// the distinct runs as long as the shortest piece are looked at: one regular expression finds
// them and a Set drops the repeats, both in C++ (prose is mostly short words, and repeats them).
// The hashing runs in V8's interpreter, ~600 instructions a character: int32 arithmetic,
// nothing allocated per position.
export function maskText(text: string, mask: SecretMask): string {
  const byAnchor = new Map<number, [number, number, number][]>();
  let shortest = Infinity;
  // By index, and pushed: destructuring and spreading arrays are iterator calls in V8's
  // interpreter, for each of the mask's ~50 pieces on every run that masks.
  for (const item of mask.items) {
    const length = item[0];
    if (length > text.length) continue;
    shortest = Math.min(shortest, length);
    const piece: [number, number, number] = [length, item[2], item[3]];
    const same = byAnchor.get(item[1]);
    if (same === undefined) byAnchor.set(item[1], [piece]);
    else same.push(piece);
  }
  if (byAnchor.size === 0) return text;
  const [b1, b2] = mask.bases;
  const hashes: Hashes = { byAnchor, width: mask.width, b1, b2, shift: power(b1, mask.width) };
  if (mask.spaced !== false) return maskSpan(text, hashes);
  // A run starts where no non-space precedes it: the look-behind tries each run once from its
  // start, where `\S{n,}` alone tried every position of every shorter word (the same matches;
  // 0.4 M instructions less on a 10 KB message).
  const runs = new RegExp(`(?<!\\S)\\S{${String(shortest)},}`, "g");
  const masked = new Map<string, string>();
  for (const run of new Set(text.match(runs))) {
    const after = maskSpan(run, hashes);
    if (after !== run) masked.set(run, after);
  }
  if (masked.size === 0) return text;
  // Where each run that holds a piece stands in the text (the text's own look-up, in C++): only
  // whole runs, as the regular expression found them.
  const found: [number, number, string][] = [];
  for (const [run, after] of masked) {
    for (let at = text.indexOf(run); at !== -1; at = text.indexOf(run, at + 1)) {
      const end = at + run.length;
      if (!SPACE.test(text.charAt(at - 1)) && at > 0) continue;
      if (!SPACE.test(text.charAt(end)) && end < text.length) continue;
      found.push([at, end, after]);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end, after] of found) {
    out += text.slice(at, start) + after;
    at = end;
  }
  return out + text.slice(at);
}

const SPACE = /\s/;

interface Hashes {
  byAnchor: Map<number, [number, number, number][]>;
  width: number;
  b1: number;
  b2: number;
  /** b1 to the power `width`. */
  shift: number;
}

// `span` with its secret pieces masked (the same string when it has none).
function maskSpan(span: string, hashes: Hashes): string {
  const n = span.length;
  const width = hashes.width;
  if (n < width) return span;
  const byAnchor = hashes.byAnchor;
  const b1 = hashes.b1;
  const shift = hashes.shift;
  let ranges: [number, number][] | undefined;
  let h = 0; // the hash of span[i, i + width)
  for (let k = 0; k < width; k++) h = (Math.imul(h, b1) + fold(span.charCodeAt(k))) | 0;
  for (let i = 0; ; i++) {
    const candidates = byAnchor.get(h);
    if (candidates !== undefined) {
      for (const [length, h1, h2] of candidates) {
        const j = i + length;
        if (j <= n && hashOf(span, b1, i, j) === h1 && hashOf(span, hashes.b2, i, j) === h2)
          (ranges ??= []).push([i, j]);
      }
    }
    if (i + width >= n) break;
    h =
      (Math.imul(h, b1) +
        fold(span.charCodeAt(i + width)) -
        Math.imul(fold(span.charCodeAt(i)), shift)) |
      0;
  }
  if (ranges === undefined) return span;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    out += span.slice(at, Math.max(at, start)) + (start >= at ? MASK : "");
    at = end;
  }
  return out + span.slice(at);
}
