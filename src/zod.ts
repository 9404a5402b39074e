// zod/mini with English messages: every module takes zod from here. zod/mini loads no locale, and
// without one every issue reads "Invalid input" instead of "Invalid URL". In dist/cli.cjs and the
// worker's bundle this module is evaluated on its first use (scripts/build.mjs, lazy-zod): a hook
// run with no config file and a well-formed event, and a worker that replays its parse memos,
// never load zod at all. The names are listed (no `export *`): the bundle carries only the parts
// of zod that src uses, and the build makes one stand-in per name.
import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

config(en());

export {
  _default,
  array,
  boolean,
  describe,
  discriminatedUnion,
  enum,
  globalRegistry,
  gt,
  gte,
  int,
  literal,
  looseObject,
  lte,
  maxLength,
  meta,
  minLength,
  never,
  nonnegative,
  nullable,
  number,
  object,
  optional,
  partialRecord,
  positive,
  record,
  refine,
  regex,
  safeParse,
  strictObject,
  string,
  superRefine,
  union,
  unknown,
  url,
  ZodMiniArray,
  ZodMiniDefault,
  ZodMiniDiscriminatedUnion,
  ZodMiniNullable,
  ZodMiniObject,
  ZodMiniOptional,
  ZodMiniRecord,
  ZodMiniUnion,
} from "zod/mini";
export type { infer, ZodMiniType } from "zod/mini";
export type * as core from "zod/v4/core";
