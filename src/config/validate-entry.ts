// One sink entry of the config file: checked against its sink's schema, and read into the
// SinkEntry the pipeline uses; and the secrets an entry holds, whatever its type.
import * as z from "../zod.js";
import { SINK_DEFAULT_EVENTS, type NoticeEvent } from "../core/hook-event.js";
import { findSink, sinks as allSinks, sinkTypes } from "../sinks/index.js";
import { plainIssues } from "./plain-issue.js";
import { closestName } from "../did-you-mean.js";
import { entrySchemaFor, optionShapesOf } from "./schema.js";
import { commonEntry } from "./entry-common-schema.js";
import { containsSecret, secretValuesOf, stringsIn } from "../secret-values.js";
import type { Escalate, SinkEntry } from "../core/config.js";
import type { Sink } from "../sinks/sink.js";
import { recordParse, replayParse, secretsAt, type MemoBook } from "./parse-memo.js";

const POLICY_KEYS = [
  "quietHours",
  "cooldown",
  "minTurnSeconds",
  "localSinksOverSsh",
  "coalesceSeconds",
] as const;
const COMMON_KEYS = new Set(["type", ...commonEntry.keys]);

// A sink entry as the pipeline reads it, or undefined (with its issues) when it cannot be used.
// `book`: zod's reading of an entry it accepted before, kept (parse-memo.ts).
export function validateEntry(
  name: string,
  raw: unknown,
  issues: string[],
  book?: MemoBook,
): SinkEntry | undefined {
  const type = (raw as { type?: unknown } | null)?.type;
  const sink = typeof type === "string" ? findSink(type) : undefined;
  if (!sink) {
    issues.push(
      `sinks.${name}.type: ${type === undefined ? "missing" : `unknown sink type ${JSON.stringify(type)}`}.${typeHint(type)} Use one of: ${sinkTypes().join(", ")}`,
    );
    return undefined;
  }
  const result = parseEntry(sink, raw, book);
  if (!result.success) {
    const known = [...COMMON_KEYS, ...optionShapesOf(sink).flatMap((shape) => Object.keys(shape))];
    issues.push(
      ...result.error.issues.flatMap((issue) =>
        plainIssues(issue, { prefix: `sinks.${name}`, root: raw, known }),
      ),
    );
    return undefined;
  }
  const data = result.data as Record<string, unknown> & {
    events?: NoticeEvent[];
    when?: "always" | "failure" | "away";
    idleSeconds?: number;
    digest?: string;
    escalate?: Escalate | Escalate[];
    fallback?: string[];
    enabled?: boolean;
    timeoutSeconds?: number;
  } & Pick<SinkEntry, (typeof POLICY_KEYS)[number]>;
  const options = Object.fromEntries(Object.entries(data).filter(([key]) => !COMMON_KEYS.has(key)));
  return {
    name,
    type: sink.type,
    events: data.events ?? [...SINK_DEFAULT_EVENTS],
    when: data.when ?? "always",
    ...(data.idleSeconds === undefined ? {} : { idleSeconds: data.idleSeconds }),
    ...(data.digest === undefined ? {} : { digest: data.digest }),
    ...(data.escalate ? { escalate: stepsOf(data.escalate) } : {}),
    ...(data.fallback ? { fallback: [...new Set(data.fallback)] } : {}),
    enabled: data.enabled ?? true,
    timeoutMs: data.timeoutSeconds === undefined ? undefined : data.timeoutSeconds * 1000,
    ...Object.fromEntries(
      POLICY_KEYS.filter((k) => data[k] !== undefined).map((k) => [k, data[k]]),
    ),
    options,
  };
}

// zod's reading of the entry, or its memo's replay when zod read this same entry before.
function parseEntry(sink: Sink<unknown>, raw: unknown, book: MemoBook | undefined) {
  const key = book?.keyOf(`sink:${sink.type}`, raw);
  const memo = key === undefined ? undefined : book?.get(key);
  if (memo) {
    try {
      return { success: true as const, data: replayParse(raw, memo), error: undefined };
    } catch {
      // a memo that does not fit this entry: zod reads it
    }
  }
  const schema = entrySchemaFor(sink, Object.keys(raw as object));
  const result = z.safeParse(schema, raw);
  if (result.success && key !== undefined) {
    const kept = recordParse(raw, result.data, secretValuesOf(schema, raw));
    if (kept) book?.put(key, kept);
  }
  return result;
}

function typeHint(type: unknown): string {
  const guess = typeof type === "string" ? closestName(type, sinkTypes()) : undefined;
  return guess === undefined ? "" : ` Did you mean "${guess}"?`;
}

// `escalate` as written, one step or a chain, as the chain it stands for.
export function stepsOf(escalate: Escalate | Escalate[] | undefined): Escalate[] | undefined {
  if (escalate === undefined) return undefined;
  const steps = Array.isArray(escalate) ? escalate : [escalate];
  return steps.length === 0 ? undefined : steps;
}

// The values of an entry's fields that its sink's schema marks secret. An entry of an unknown type
// (its schema unknown) gives every value under a key that is secret in some sink.
export function secretsOfEntry(raw: unknown, book?: MemoBook): string[] {
  const type = (raw as { type?: unknown } | null)?.type;
  const sink = typeof type === "string" ? findSink(type) : undefined;
  const memo = sink && book?.get(book.keyOf(`sink:${sink.type}`, raw));
  if (memo) return secretsAt(raw, memo);
  if (sink) return secretValuesOf(entrySchemaFor(sink, Object.keys(raw as object)), raw);
  if (!raw || typeof raw !== "object") return [];
  const keys = secretKeysOfAllSinks();
  return Object.entries(raw).flatMap(([key, value]) => (keys.has(key) ? stringsIn(value) : []));
}

// The option keys that hold a secret in some sink ("url", "token", "smtp", "headers", …).
export function secretKeysOfAllSinks(): Set<string> {
  const keys = new Set<string>();
  for (const sink of allSinks) {
    for (const shape of optionShapesOf(sink)) {
      for (const [key, child] of Object.entries(shape)) if (containsSecret(child)) keys.add(key);
    }
  }
  return keys;
}
