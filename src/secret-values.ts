// Which config values are secrets is said once, in the schemas: a field marked
// `z.meta({ secret: true })` holds one. These walk a schema beside a value and collect them.
import * as z from "./zod.js";

type Schema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string };

const WRAPPERS = new Set([
  "optional",
  "nullable",
  "default",
  "prefault",
  "nonoptional",
  "readonly",
  "catch",
]);

const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def;
const isSecret = (schema: Schema): boolean => z.globalRegistry.get(schema)?.secret === true;

// Peels optional/default/pipe layers; stops early at a layer marked secret.
function unwrap(schema: Schema): Schema {
  let current = schema;
  for (let def = defOf(current); !isSecret(current); def = defOf(current)) {
    if (WRAPPERS.has(def.type)) current = def.innerType as Schema;
    else if (def.type === "pipe") current = def.in as Schema;
    else break;
  }
  return current;
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
  const inner = unwrap(schema);
  if (isSecret(inner)) return value === undefined ? value : onSecret(value);
  const def = defOf(inner);
  const walk = (child: Schema, item: unknown): unknown => mapSecrets(child, item, onSecret);
  switch (def.type) {
    case "array":
      return Array.isArray(value) ? value.map((item) => walk(def.element as Schema, item)) : value;
    case "record":
      return isObject(value) ? mapValues(value, () => def.valueType as Schema, walk) : value;
    case "object": {
      const shape = def.shape as Record<string, Schema>;
      return isObject(value) ? mapValues(value, (key) => shape[key], walk) : value;
    }
    case "union":
      return optionsFor(def, value).reduce((current, option) => walk(option, current), value);
    default:
      return value;
  }
}

// The options of a union a value is walked with: for a discriminated union the one its key
// selects (each once), else every option (a value matching none is walked by all).
function optionsFor(def: Def, value: unknown): Schema[] {
  const options = def.options as Schema[];
  const key = def.discriminator as string | undefined;
  if (key === undefined || !isObject(value)) return options;
  const chosen = options.filter((option) => {
    const values = (option._zod as { propValues?: Record<string, Set<unknown>> }).propValues;
    return values?.[key]?.has(value[key]) === true;
  });
  return chosen.length > 0 ? chosen : options;
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
  const inner = unwrap(schema);
  if (isSecret(inner)) return true;
  const def = defOf(inner);
  switch (def.type) {
    case "array":
      return containsSecret(def.element as Schema);
    case "record":
      return containsSecret(def.valueType as Schema);
    case "object":
      return Object.values(def.shape as Record<string, Schema>).some(containsSecret);
    case "union":
      return (def.options as Schema[]).some(containsSecret);
    default:
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
