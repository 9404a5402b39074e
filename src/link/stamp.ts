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
    envPrint(stamp.env.names, stamp.env.salt, hook.env) === stamp.env.print
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
function hashOf(text: string, base: number): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, base) + text.charCodeAt(i)) | 0;
  return h;
}

function power(base: number, exponent: number): number {
  let result = 1;
  for (let i = 0; i < exponent; i++) result = Math.imul(result, base);
  return result;
}

// Every stretch of `text` that is a secret piece (its length, anchor and both hashes match)
// becomes "***" (Rabin-Karp: prefix hashes, then one anchor look-up per position). A collision
// masks a harmless stretch. When no piece holds white space, only the runs without any that are
// as long as the shortest piece are looked at (prose is mostly short words: a 10 KB message
// costs a fraction of a full scan). On the hook's critical path, in V8's interpreter: int32
// arithmetic and typed arrays only, nothing allocated per position.
export function maskText(text: string, mask: SecretMask): string {
  const byAnchor = new Map<number, [number, number, number][]>();
  let shortest = Infinity;
  for (const [length, anchor, h1, h2] of mask.items) {
    if (length > text.length) continue;
    shortest = Math.min(shortest, length);
    byAnchor.set(anchor, [...(byAnchor.get(anchor) ?? []), [length, h1, h2]]);
  }
  if (byAnchor.size === 0) return text;
  const ranges: [number, number][] = [];
  if (mask.spaced === false) {
    const runs = new RegExp(`\\S{${String(shortest)},}`, "g");
    for (let run = runs.exec(text); run !== null; run = runs.exec(text))
      scan(run[0], run.index, mask, byAnchor, ranges);
  } else scan(text, 0, mask, byAnchor, ranges);
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = "";
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    out += text.slice(at, Math.max(at, start)) + (start >= at ? MASK : "");
    at = end;
  }
  return out + text.slice(at);
}

// The secret pieces in `span` (which starts at `base` in the text), as ranges of the text.
function scan(
  span: string,
  base: number,
  mask: SecretMask,
  byAnchor: Map<number, [number, number, number][]>,
  ranges: [number, number][],
): void {
  const n = span.length;
  const { width } = mask;
  const [b1, b2] = mask.bases;
  const prefix1 = prefixHashes(span, b1);
  let prefix2: Int32Array | undefined; // only when a first hash matches
  const shift = power(b1, width);
  for (let i = 0; i + width <= n; i++) {
    const candidates = byAnchor.get(
      ((prefix1[i + width] as number) - Math.imul(prefix1[i] as number, shift)) | 0,
    );
    if (candidates === undefined) continue;
    for (const [length, h1, h2] of candidates) {
      const j = i + length;
      if (j > n) continue;
      if (
        (((prefix1[j] as number) - Math.imul(prefix1[i] as number, power(b1, length))) | 0) !==
        h1
      )
        continue;
      prefix2 ??= prefixHashes(span, b2);
      if (
        (((prefix2[j] as number) - Math.imul(prefix2[i] as number, power(b2, length))) | 0) ===
        h2
      )
        ranges.push([base + i, base + j]);
    }
  }
}

// prefix[k] = hash of text[0, k).
function prefixHashes(text: string, base: number): Int32Array {
  const prefix = new Int32Array(text.length + 1);
  let h = 0;
  for (let i = 0; i < text.length; i++) {
    h = (Math.imul(h, base) + text.charCodeAt(i)) | 0;
    prefix[i + 1] = h;
  }
  return prefix;
}
