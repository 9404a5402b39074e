// zod's issues in plain words, each naming the key path and what would be valid there: "sinks.mail.
// smtp.port: must be a number (it is a string)", "sinks.desktop.urgnecy: unknown setting. Did you
// mean "urgency"?". Values are never quoted back (they may be secrets); only their kind is.
import * as z from "../zod.js";
import { closestName } from "../did-you-mean.js";
import { join } from "./expand-env.js";

/** The dotted place of an issue: "sinks.team.url", "escalate[1].to". */
export function issuePath(path: readonly PropertyKey[], prefix = ""): string {
  return path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${String(key)}]` : join(acc, String(key))),
    prefix,
  );
}

// The value at `path` inside `root`, to say what kind of value it is.
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return `${String(value)} (true/false)`;
  return typeof value;
}

const EXPECTED: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "a string",
  boolean: "true or false",
  array: "a list [ … ]",
  object: "an object { … }",
};

const KEY_HINT = " (check its spelling against the schema)";

/** One line per problem. `known`: the keys valid at `prefix` (a sink's), for did-you-mean. */
export function plainIssues(
  issue: z.core.$ZodIssue,
  options: { prefix?: string; root?: unknown; known?: readonly string[]; schema?: unknown } = {},
): string[] {
  const { prefix = "", root } = options;
  const known = options.known ?? keysAt(options.schema, issue.path);
  const at = issuePath(issue.path, prefix);
  const place = at || "(top level)";
  const value = valueAt(root, issue.path);
  switch (issue.code) {
    case "unrecognized_keys":
      return issue.keys.map((key) => unknownKeyMessage(join(at, key), key, known));
    case "invalid_type": {
      if (value === undefined) return [`${place}: missing (it is required here)`];
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      return [`${place}: must be ${expected} (it is ${kindOf(value)})`];
    }
    case "invalid_value": {
      const choices = issue.values.map((v) => JSON.stringify(v));
      const guess =
        typeof value === "string"
          ? closestName(
              value,
              issue.values.filter((v): v is string => typeof v === "string"),
            )
          : undefined;
      const hint = guess === undefined ? "" : ` Did you mean "${guess}"?`;
      return [
        `${place}: must be ${choices.length === 1 ? "" : "one of "}${choices.join(", ")}.${hint}`,
      ];
    }
    case "too_small":
    case "too_big": {
      const bound = String(issue.code === "too_small" ? issue.minimum : issue.maximum);
      const side = issue.code === "too_small" ? "at least" : "at most";
      if (issue.origin === "string" && issue.code === "too_small" && bound === "1")
        return [`${place}: must not be empty`];
      if (issue.origin === "string") return [`${place}: must be ${side} ${bound} characters long`];
      if (issue.origin === "array" || issue.origin === "set")
        return [`${place}: must have ${side} ${bound} ${bound === "1" ? "entry" : "entries"}`];
      return [`${place}: must be ${side} ${bound}`];
    }
    case "invalid_format":
      if (issue.format === "url")
        return [`${place}: must be a full http:// or https:// URL, like https://example.com/path`];
      return [`${place}: ${issue.message}`];
    case "custom":
    case "invalid_union":
    case "invalid_key":
    case "invalid_element":
    case "not_multiple_of":
      return [`${place}: ${issue.message}`];
  }
}

// The keys of the object schema at `path` inside `schema` (through optional, default, nullable and
// list wrappers), for a did-you-mean on a nested key ("service.intervalSecond").
function keysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  let current = unwrap(schema);
  for (const key of path) {
    if (current instanceof z.ZodMiniObject && typeof key === "string")
      current = unwrap(current.shape[key]);
    else if (current instanceof z.ZodMiniArray && typeof key === "number")
      current = unwrap(current.def.element);
    else return [];
  }
  return current instanceof z.ZodMiniObject ? Object.keys(current.shape) : [];
}

// The schema inside optional, default and nullable wrappers.
function unwrap(schema: unknown): unknown {
  let current = schema;
  while (
    current instanceof z.ZodMiniOptional ||
    current instanceof z.ZodMiniDefault ||
    current instanceof z.ZodMiniNullable
  )
    current = current.def.innerType;
  return current;
}

/** "quietHour: unknown setting. Did you mean "quietHours"?" */
export function unknownKeyMessage(place: string, key: string, known: readonly string[]): string {
  const guess = closestName(key, known);
  return `${place}: unknown setting${guess === undefined ? KEY_HINT : `. Did you mean "${guess}"?`}`;
}
