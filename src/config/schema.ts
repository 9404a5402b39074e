import * as z from "../zod.js";
import { sinks } from "../sinks/index.js";
import type { Sink } from "../sinks/sink.js";
import { about } from "./schema-parts.js";
import { commonEntry } from "./entry-common-schema.js";
import { topLevelShape } from "./top-level-schema.js";

// Built once per sink type (`type`) and per sink type and set of common keys (the entries).
const typeSchemas = new Map<string, z.ZodMiniType>();
const entrySchemas = new Map<string, z.ZodMiniType>();
const variantSchemas = new Map<string, z.ZodMiniObject[]>();

// A sink's option shapes: its one object, or one object per variant when its options are a union
// told apart by a key (chat: one per `service`), each with the rules across its options.
function optionVariants(sink: Sink<unknown>): z.ZodMiniObject[] {
  const { options } = sink;
  if (options instanceof z.ZodMiniObject) return [options];
  if (options instanceof z.ZodMiniDiscriminatedUnion) {
    const variants = options.def.options.filter((one) => one instanceof z.ZodMiniObject);
    if (variants.length === options.def.options.length) return variants;
  }
  throw new TypeError(`sink ${sink.type}: its options are not an object or a union of objects`);
}

// The option keys of every shape a sink's entry may take (for finding secret keys).
export function optionShapesOf(sink: Sink<unknown>): z.core.$ZodShape[] {
  return optionVariants(sink).map((variant) => variant.shape);
}

// The common keys of an entry with these keys (every common key without them), and the name its
// schemas are kept under. The common keys are optional: zod reads an entry the same way with the
// schemas of the common keys it has as with all of them (test/config/entry-shape.test.ts).
function commonOf(sink: Sink<unknown>, keys: readonly string[] | undefined) {
  const shape = commonEntry.shapeOf(keys ?? commonEntry.keys);
  return { shape, id: `${sink.type}:${Object.keys(shape).join(",")}` };
}

function typeSchemaOf(sink: Sink<unknown>): z.ZodMiniType {
  let type = typeSchemas.get(sink.type);
  if (!type) {
    type = z.literal(sink.type).check(about("The kind of sink; its options follow."));
    typeSchemas.set(sink.type, type);
  }
  return type;
}

// One sink's entry schemas: the common keys (those of `keys`, or all) plus each of its option
// shapes.
export function entryVariantsFor(sink: Sink<unknown>, keys?: readonly string[]): z.ZodMiniObject[] {
  const common = commonOf(sink, keys);
  const cached = variantSchemas.get(common.id);
  if (cached) return cached;
  const type = typeSchemaOf(sink);
  const variants = optionVariants(sink).map((variant) => {
    const entry = z.strictObject({ type, ...common.shape, ...variant.shape });
    // The rules across the options read only the options' keys, which the entry holds too.
    const checks = (variant.def.checks ?? []) as never[];
    return checks.length > 0 ? entry.check(...checks) : entry;
  });
  variantSchemas.set(common.id, variants);
  return variants;
}

// The schema of a sink entry with these keys (every key a sink entry may have without them); a
// sink with option variants gets their union, chosen by the key that tells them apart (so an issue
// names the variant's own option, not "Invalid input").
export function entrySchemaFor(sink: Sink<unknown>, keys?: readonly string[]): z.ZodMiniType {
  const { id } = commonOf(sink, keys);
  const cached = entrySchemas.get(id);
  if (cached) return cached;
  const [first, ...rest] = entryVariantsFor(sink, keys);
  const key = discriminatorOf(sink.options);
  const schema =
    first === undefined || rest.length === 0 || key === undefined
      ? (first ?? z.never())
      : z.discriminatedUnion(key, [first, ...rest], { error: unmatchedMessage(sink.options) });
  entrySchemas.set(id, schema);
  return schema;
}

// The key that tells a sink's option variants apart (chat: "service").
function discriminatorOf(options: z.ZodMiniType): string | undefined {
  if (!(options instanceof z.ZodMiniDiscriminatedUnion)) return undefined;
  const { def } = options;
  return "discriminator" in def && typeof def.discriminator === "string"
    ? def.discriminator
    : undefined;
}

// The message the sink's own union gives for a variant key that matches none (it lists the
// values), or zod's when the sink set none.
function unmatchedMessage(options: z.ZodMiniType): string | undefined {
  if (options.def.error === undefined) return undefined;
  return z.safeParse(options, {}).error?.issues[0]?.message;
}

// The whole config file's schema: the source of the generated JSON Schema.
export function buildConfigSchema(): z.ZodMiniObject {
  const entries = sinks.flatMap((sink) => entryVariantsFor(sink as Sink<unknown>));
  const [first, ...rest] = entries;
  const entry = first && rest.length > 0 ? z.union([first, ...rest]) : (first ?? z.never());
  const sinksRecord = z
    .record(z.string(), entry)
    .check(
      about(
        "Where notifications go: one entry per sink, under a name of your choice (it shows in logs and errors); `type` picks the kind. With no config file at all: one desktop and one sound sink.",
      ),
    );
  return z.strictObject({ ...topLevelShape(), sinks: z.optional(sinksRecord) });
}
