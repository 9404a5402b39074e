// What zod made of a piece of config, kept so that a later process reads the same piece without
// building its schemas (issue 41: a cold worker spent ~15 M instructions, ~5 ms, building zod
// schemas before its first banner). The rules are in PARSE-MEMO.md beside this file; in short:
// - a memo is kept only for a piece zod accepted, under a salted hash of the build, the place
//   and the piece's text after ${VAR} expansion: any change to any of them is another key;
// - it holds zod's output with every value that came from the input at the same place left out
//   (a path says where to put it back), and the places of the input's secrets: never a value
//   the person wrote, only what the schemas added (their defaults) and the output's shape;
// - replayed on the same input it gives what zod gave, keys in the same order.
// Pure: the file it lives in is parse-memo-file.ts.
import { fnv1a64 } from "../fnv1a.js";

export type MemoPath = (string | number)[];

export interface ParseMemo {
  /** zod's output; every leaf listed in `from` is null here. */
  shape: unknown;
  /** The leaves whose value is the input's at the same path. */
  from: MemoPath[];
  /** Where the input's secrets are (every string under each is one). */
  secrets: MemoPath[];
}

/** Memos by key, as one validation reads and adds them (parse-memo-file.ts keeps them). */
export interface MemoBook {
  keyOf(site: string, input: unknown): string;
  get(key: string): ParseMemo | undefined;
  put(key: string, memo: ParseMemo): void;
}

export function memoKey(salt: string, build: string, site: string, input: unknown): string {
  return fnv1a64(`${salt}\u0000${build}\u0000${site}\u0000${JSON.stringify(input)}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const isLeaf = (value: unknown): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

// The memo of zod's `output` for `input`, or undefined when it cannot be kept without a value of
// the input: `secrets` are the input's secret strings (secret-values.ts); a string of the output
// that is not the input's at the same place is kept as written, so it must not be one of them.
export function recordParse(
  input: unknown,
  output: unknown,
  secrets: readonly string[],
): ParseMemo | undefined {
  const secret = new Set(secrets);
  const from: MemoPath[] = [];
  let keepable = true as boolean;
  const walk = (out: unknown, inp: unknown, path: MemoPath): unknown => {
    if (isLeaf(out)) {
      if (out === inp) {
        from.push(path);
        return null;
      }
      if (typeof out === "string" && secret.has(out)) keepable = false;
      return out;
    }
    if (Array.isArray(out))
      return out.map((item, i) =>
        walk(item, Array.isArray(inp) ? inp[i] : undefined, [...path, i]),
      );
    if (isRecord(out)) {
      const shape: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(out))
        shape[key] = walk(value, isRecord(inp) && Object.hasOwn(inp, key) ? inp[key] : undefined, [
          ...path,
          key,
        ]);
      return shape;
    }
    if (out === null || out === undefined) return out;
    keepable = false; // a Date, a Map: not JSON (the config schemas make none)
    return undefined;
  };
  const shape = walk(output, input, []);
  if (!keepable || shape === undefined) return undefined;
  return { shape, from, secrets: pathsOf(input, secret) };
}

// What zod gave for `input` when the memo was kept: its shape with the input's values put back.
export function replayParse(input: unknown, memo: ParseMemo): unknown {
  const out = copyOf(memo.shape);
  if (memo.from.some((path) => path.length === 0)) return at(input, []);
  for (const path of memo.from) {
    const parent = at(out, path.slice(0, -1)) as Record<string | number, unknown>;
    parent[path[path.length - 1] as string | number] = at(input, path);
  }
  return out;
}

/** The input's secrets, from the places the memo names. */
export function secretsAt(input: unknown, memo: ParseMemo): string[] {
  return memo.secrets.map((path) => at(input, path)).filter((v) => typeof v === "string");
}

function at(value: unknown, path: MemoPath): unknown {
  let current = value;
  for (const step of path) current = (current as Record<string | number, unknown>)[step];
  return current;
}

// The paths of the input's strings that are secrets.
function pathsOf(input: unknown, secret: ReadonlySet<string>): MemoPath[] {
  const found: MemoPath[] = [];
  const walk = (value: unknown, path: MemoPath): void => {
    if (typeof value === "string") {
      if (secret.has(value)) found.push(path);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        walk(item, [...path, i]);
      });
    } else if (isRecord(value)) for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(input, []);
  return found;
}

/** A memo as read from a file: its parts have the types above (their content is checked where
 * it is replayed: a path that does not fit makes the replay throw, and zod reads the piece). */
export function isParseMemo(value: unknown): value is ParseMemo {
  if (!isRecord(value)) return false;
  const paths = (list: unknown) =>
    Array.isArray(list) &&
    list.every(
      (path) =>
        Array.isArray(path) &&
        path.every((step) => typeof step === "string" || typeof step === "number"),
    );
  return "shape" in value && paths(value.from) && paths(value.secrets);
}

/** A copy of JSON data (what a config is): cheaper here than structuredClone (0.14 M instructions
 * less to a cold worker's Notify on Node 20). */
function copyOf<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
