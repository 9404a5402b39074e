import { own } from "../own.js";

/** A `${NAME}` that had no value in the environment, and where it was. */
export interface MissingVariable {
  path: string;
  name: string;
}

export interface Expanded {
  value: unknown;
  missing: MissingVariable[];
  /** Every value that came from the environment: treated as a secret. */
  values: string[];
}

// Replaces ${NAME} in every string of a JSON value, so secrets can stay in the environment.
export function expandEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  path = "",
): Expanded {
  const result: Expanded = { value, missing: [], values: [] };
  if (typeof value === "string") {
    result.value = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const found = own(env, name);
      if (found === undefined || found === "") {
        result.missing.push({ path, name });
        return "";
      }
      result.values.push(found);
      return found;
    });
  } else if (Array.isArray(value)) {
    result.value = value.map((item, i) => merge(result, expandEnv(item, env, `${path}[${i}]`)));
  } else if (value && typeof value === "object") {
    result.value = Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        merge(result, expandEnv(item, env, join(path, key))),
      ]),
    );
  }
  return result;
}

function merge(into: Expanded, from: Expanded): unknown {
  into.missing.push(...from.missing);
  into.values.push(...from.values);
  return from.value;
}

// "sinks" + "team" → "sinks.team"
export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
