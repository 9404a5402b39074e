// The hook's own mask when no stamp holds (PROTOCOL.md, "a hook", step 2; issue #41): the first
// hook after a config edit, a `${VAR}` change or an upgrade, and the very first hook, hand their
// event over as a stamped hook does, without loading the pipeline, the config schema or zod. The
// hook reads the config file itself (JSON.parse, nothing validated: the worker does that when it
// runs the event) and masks every value that could be a secret: a superset of what the schema
// marks secret (config/validate-config.ts), so nothing the worker would mask reaches the disk.
// - every value a `${NAME}` brings in from the environment (expand-env.ts treats each as one);
// - under each sink entry, every string under a key that is secret in some sink (SECRET_KEYS,
//   which a test holds equal to the schemas' own list): what validate-config.ts masks for an
//   entry whose type it does not know, so also for every type it does;
// - `approveReplyTopic`, `service.apiKey`.
// Each in every encoding redact.ts masks (secretPartsOf). A config that does not parse masks
// nothing more than the built-in default would (it has no secret): the worker's run delivers with
// the default and announces the problem, as the hook's own run did. One that cannot be read at
// all is left to the hook's own run (fast-hook.ts).
import { readBoundedSync } from "../read-bounded.js";
import { secretPartsOf } from "../redact.js";
import { MAX_CONFIG_BYTES } from "../core/defaults.js";
import { jsonErrorWhere } from "../config/locate-key.js";
import { own } from "../own.js";

/** The option keys that hold a secret in some sink (validate-config.ts secretKeysOfAllSinks). */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  "accessToken",
  "botToken",
  "headers",
  "replyTopic",
  "secret",
  "smtp",
  "token",
  "url",
  "user",
]);

/** ${NAME} as expand-env.ts reads it. */
const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** What the hook learnt from the config file without validating it. */
export interface ConfigSecrets {
  /** Every piece to mask (secretPartsOf of each value). */
  pieces: string[];
  /** The file's text does not parse (or cannot be read): the run will say so. `where`: what
   * JSON.parse said, placed (load-config.ts says the same). */
  broken?: { path: string; text?: string; where?: string } | undefined;
}

// Reads `path` as load-config.ts does (a regular file, bounded, a BOM dropped); `explicit`: a
// --config or HOOK_NOTIFY_CONFIG names it (then a missing file is a problem, not the default).
export function configSecrets(
  path: string,
  explicit: boolean,
  env: Readonly<Record<string, string | undefined>>,
): ConfigSecrets {
  let text: string;
  try {
    text = readBoundedSync(path, { maxBytes: MAX_CONFIG_BYTES });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT" && !explicit;
    return missing ? { pieces: [] } : { pieces: [], broken: { path } };
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { pieces: [], broken: { path, text, where: jsonErrorWhere(text, error) } };
  }
  return { pieces: secretsOf(json, env).flatMap(secretPartsOf) };
}

// The values a parsed config could hold a secret in, `${NAME}`s expanded.
export function secretsOf(
  json: unknown,
  env: Readonly<Record<string, string | undefined>>,
): string[] {
  const found: string[] = [];
  // Every value the environment brings in, wherever the ${NAME} stands.
  for (const text of stringsIn(json)) {
    for (const match of text.matchAll(VARIABLE)) {
      const value = own(env, match[1] ?? "");
      if (value) found.push(value);
    }
  }
  if (!isObject(json)) return found;
  const expand = (text: string) =>
    text.replace(VARIABLE, (_, name: string) => own(env, name) ?? "");
  const { sinks, approveReplyTopic, service } = json;
  for (const entry of isObject(sinks) ? Object.values(sinks) : []) {
    if (!isObject(entry)) continue;
    for (const [key, value] of Object.entries(entry))
      if (SECRET_KEYS.has(key)) found.push(...stringsIn(value).map(expand));
  }
  if (typeof approveReplyTopic === "string") found.push(expand(approveReplyTopic));
  if (isObject(service) && typeof service.apiKey === "string") found.push(expand(service.apiKey));
  return found.filter((value) => value !== "");
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

// Every string in a JSON value (keys left out), iteratively: a config is small, but its nesting is
// the user's.
function stringsIn(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") out.push(item);
    else if (item !== null && typeof item === "object")
      for (const child of Object.values(item) as unknown[]) stack.push(child);
  }
  return out;
}
