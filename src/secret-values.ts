// Which config values are secrets is said once, in the schemas: a field marked
// `z.meta({ secret: true })` holds one. These walk a schema beside a value and collect them.
import * as z from "./zod.js";
import { own } from "./own.js";

type Schema = z.core.$ZodType;

const isSecret = (schema: Schema): boolean => z.globalRegistry.get(schema)?.secret === true;

// Peels the optional, default and nullable layers (the wrappers src/zod.ts can build); stops
// early at a layer marked secret.
function unwrap(schema: Schema): Schema {
  let current = schema;
  while (
    !isSecret(current) &&
    (current instanceof z.ZodMiniOptional ||
      current instanceof z.ZodMiniDefault ||
      current instanceof z.ZodMiniNullable)
  )
    current = current.def.innerType;
  return current;
}

// The schemas a value inside this one is walked with: an object's by key, a list's and a
// record's for every item, a union's options.
type Inner =
  | { kind: "object"; shape: Record<string, Schema> }
  | { kind: "array" | "record"; item: Schema }
  | { kind: "union"; options: readonly Schema[]; key?: string }
  | { kind: "leaf" };

function innerOf(schema: Schema): Inner {
  if (schema instanceof z.ZodMiniObject) return { kind: "object", shape: schema.shape };
  if (schema instanceof z.ZodMiniArray) return { kind: "array", item: schema.def.element };
  if (schema instanceof z.ZodMiniRecord) return { kind: "record", item: schema.def.valueType };
  if (schema instanceof z.ZodMiniDiscriminatedUnion) {
    const { def } = schema;
    const key = "discriminator" in def ? def.discriminator : undefined;
    return typeof key === "string"
      ? { kind: "union", options: def.options, key }
      : { kind: "union", options: def.options };
  }
  if (schema instanceof z.ZodMiniUnion) return { kind: "union", options: schema.def.options };
  return { kind: "leaf" };
}

// Every string under a field the schema marks secret, wherever it is nested. Tolerant: a value of
// the wrong shape (an entry that failed validation) is walked as far as it matches.
export function secretValuesOf(schema: Schema, value: unknown): string[] {
  const found: string[] = [];
  mapSecrets(schema, value, (secret) => {
    found.push(...stringsIn(secret));
    return secret;
  });
  return found;
}

// A copy of the value with every field the schema marks secret shown as "***" (--dry-run).
export function maskSecrets<T>(schema: Schema, value: T): T {
  return mapSecrets(schema, value, () => "***") as T;
}

// Walks a value beside its schema; each value under a secret field is replaced by `onSecret`'s.
function mapSecrets(schema: Schema, value: unknown, onSecret: (v: unknown) => unknown): unknown {
  const outer = unwrap(schema);
  if (isSecret(outer)) return value === undefined ? value : onSecret(value);
  const inner = innerOf(outer);
  const walk = (child: Schema, item: unknown): unknown => mapSecrets(child, item, onSecret);
  switch (inner.kind) {
    case "array":
      return Array.isArray(value) ? value.map((item) => walk(inner.item, item)) : value;
    case "record":
      return isObject(value) ? mapValues(value, () => inner.item, walk) : value;
    case "object":
      // Own keys only: a key a person wrote ("toString") is no schema of Object.prototype's.
      return isObject(value) ? mapValues(value, (key) => own(inner.shape, key), walk) : value;
    case "union":
      return optionsFor(inner, value).reduce((current, option) => walk(option, current), value);
    case "leaf":
      return value;
  }
}

// The options of a union a value is walked with: for a discriminated union the one its key
// selects (each once), else every option (a value matching none is walked by all).
function optionsFor(union: { options: readonly Schema[]; key?: string }, value: unknown): Schema[] {
  const { options, key } = union;
  if (key === undefined || !isObject(value)) return [...options];
  const chosen = options.filter((option) => {
    const tag = option instanceof z.ZodMiniObject ? option.shape[key] : undefined;
    return tag !== undefined && z.safeParse(tag, value[key]).success;
  });
  return chosen.length > 0 ? chosen : [...options];
}

function mapValues(
  value: Record<string, unknown>,
  schemaOf: (key: string) => Schema | undefined,
  walk: (child: Schema, item: unknown) => unknown,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const child = schemaOf(key);
      return [key, child === undefined ? item : walk(child, item)];
    }),
  );
}

// True when a field marked secret is anywhere in the schema.
export function containsSecret(schema: Schema): boolean {
  const outer = unwrap(schema);
  if (isSecret(outer)) return true;
  const inner = innerOf(outer);
  switch (inner.kind) {
    case "array":
    case "record":
      return containsSecret(inner.item);
    case "object":
      return Object.values(inner.shape).some(containsSecret);
    case "union":
      return inner.options.some(containsSecret);
    case "leaf":
      return false;
  }
}

// Every string in a JSON-like value.
export function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (isObject(value)) return Object.values(value).flatMap(stringsIn);
  return [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
