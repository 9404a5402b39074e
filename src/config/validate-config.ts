import * as z from "../zod.js";
import { once } from "../once.js";
import { secretPartsOf } from "../redact.js";
import { secretValuesOf } from "../secret-values.js";
import { recordParse, replayParse, type MemoBook } from "./parse-memo.js";
import { expandEnv } from "./expand-env.js";
import { plainIssues, unknownKeyMessage } from "./plain-issue.js";
import { closestName } from "../did-you-mean.js";
import { checkFallbacks } from "./fallback-check.js";
import { secretsOfEntry, stepsOf, validateEntry } from "./validate-entry.js";
import type { topLevelShape } from "./top-level-schema.js";
import { TOP_LEVEL_KEYS, topLevelShapeOf } from "./top-level-schema.js";
import type { Config, Escalate, ServiceConfig, SinkEntry } from "../core/config.js";
import {
  DEFAULT_APPROVE_SECONDS,
  DEFAULT_REPLY_SECONDS,
  DEFAULT_COALESCE_SECONDS,
  DEFAULT_DEDUPE_SECONDS,
  DEFAULT_ENRICH_TIMEOUT_SECONDS,
  DEFAULT_INTERVAL_SECONDS,
  DEFAULT_MAX_BODY_LENGTH,
  DEFAULT_MIN_TURN_SECONDS,
  MAX_SINKS,
} from "../core/defaults.js";

export interface Validated {
  value: Config;
  /** One line per problem: "sinks.team.url: Invalid URL". Broken entries are left out of value. */
  issues: string[];
  secrets: string[];
  /** Sinks left out only because a ${VAR} they use is not set here: sink name → variable names.
   * Another process (with the variable) can still deliver to them; queued work for them waits. */
  unresolved?: Record<string, string[]> | undefined;
}

const sinksRecord = once(() => z.optional(z.record(z.string(), z.unknown())));
const topLevels = new Map<string, ReturnType<typeof buildTopLevel>>();

// The top-level schema for a file with these keys: only their schemas are built (typed as the
// whole, every key being optional), once per set of keys (a live worker validates per event).
function topLevelFor(keys: readonly string[]) {
  const shape = topLevelShapeOf(keys);
  const id = Object.keys(shape).join(",");
  let schema = topLevels.get(id);
  if (!schema) topLevels.set(id, (schema = buildTopLevel(shape)));
  return schema;
}

function buildTopLevel(shape: Partial<ReturnType<typeof topLevelShape>>) {
  return z.looseObject({ ...(shape as ReturnType<typeof topLevelShape>), sinks: sinksRecord() });
}
type TopLevel = z.infer<ReturnType<typeof topLevelFor>>;

// Validates parsed config JSON. Pure: returns the usable part plus every problem as data.
// `book`: what zod made of pieces it accepted before (parse-memo.ts): the same result, faster.
export function validateConfig(
  json: unknown,
  env: Readonly<Record<string, string | undefined>>,
  book?: MemoBook,
): Validated {
  const issues: string[] = [];
  const expanded = expandEnv(capSinks(json, issues), env);
  const data = parseTopLevel(expanded.value, issues, book);
  const unknownKeys = Object.keys(data).filter(
    (key) => !(TOP_LEVEL_KEYS as readonly string[]).includes(key) && key !== "sinks",
  );
  issues.push(...unknownKeys.map((key) => unknownKeyMessage(key, key, TOP_LEVEL_KEYS)));
  const sinks: Record<string, SinkEntry> = {};
  const unresolved: Record<string, string[]> = {};
  for (const [name, raw] of Object.entries(data.sinks ?? {})) {
    const missing = expanded.missing.filter(
      (m) => m.path.startsWith(`sinks.${name}.`) || m.path === `sinks.${name}`,
    );
    const entryIssues: string[] = [];
    const entry = validateEntry(name, raw, entryIssues, book);
    // A field whose ${VAR} is unset also fails its schema ("Invalid URL"): say only the cause.
    issues.push(
      ...entryIssues.filter((issue) => !missing.some((m) => issue.startsWith(`${m.path}: `))),
    );
    if (missing.length > 0) {
      unresolved[name] = [...new Set(missing.map((m) => m.name))];
      issues.push(
        ...missing.map(
          (m) =>
            `${m.path}: environment variable ${m.name} is not set. Export it where the agent runs, or write the value.`,
        ),
      );
    } else if (entry) sinks[name] = entry;
  }
  const escalate = stepsOf(data.escalate);
  issues.push(...unknownEscalationTargets(escalate, sinks, "escalate"));
  for (const entry of Object.values(sinks))
    issues.push(...unknownEscalationTargets(entry.escalate, sinks, `sinks.${entry.name}.escalate`));
  issues.push(...checkFallbacks(sinks));
  const service = serviceOf(data.service, expanded.missing, issues);
  return {
    value: {
      enabled: data.enabled ?? true,
      sinks,
      templates: data.templates,
      maxBodyLength: data.maxBodyLength ?? DEFAULT_MAX_BODY_LENGTH,
      allowProjectSinks: data.allowProjectSinks ?? false,
      dedupeSeconds: data.dedupeSeconds ?? DEFAULT_DEDUPE_SECONDS,
      cooldown: data.cooldown,
      minTurnSeconds: data.minTurnSeconds ?? DEFAULT_MIN_TURN_SECONDS,
      quietHours: data.quietHours || undefined,
      localSinksOverSsh: data.localSinksOverSsh ?? false,
      dnd: data.dnd ?? "respect",
      coalesceSeconds: data.coalesceSeconds ?? DEFAULT_COALESCE_SECONDS,
      escalate,
      approveWhen: data.approveWhen ?? "away",
      approveSeconds: data.approveSeconds ?? DEFAULT_APPROVE_SECONDS,
      approveReplyTopic: data.approveReplyTopic,
      approveSink: data.approveSink,
      replySink: data.replySink,
      replySeconds: data.replySeconds ?? DEFAULT_REPLY_SECONDS,
      service,
    },
    issues,
    secrets: [
      ...expanded.values,
      ...Object.values(data.sinks ?? {}).flatMap((raw) => secretsOfEntry(raw, book)),
      ...(data.approveReplyTopic === undefined ? [] : [data.approveReplyTopic]),
      ...(data.service?.apiKey ? [data.service.apiKey] : []),
    ].flatMap(secretPartsOf),
    unresolved,
  };
}

// `service` with its defaults; left out (with an issue) when a ${VAR} in it has no value.
function serviceOf(
  raw: TopLevel["service"],
  missing: readonly { path: string; name: string }[],
  issues: string[],
): ServiceConfig | undefined {
  const unset = missing.filter((m) => m.path.startsWith("service."));
  if (unset.length > 0) {
    // The empty value also failed the schema: say the cause instead of "too small".
    const said = issues.findIndex((issue) => issue.startsWith("service.apiKey:"));
    if (said >= 0) issues.splice(said, 1);
    issues.push(
      ...unset.map(
        (m) =>
          `${m.path}: environment variable ${m.name} is not set, so the service is not used. Export it where hook-notify runs.`,
      ),
    );
    return undefined;
  }
  if (!raw) return undefined;
  return {
    baseUrl: raw.baseUrl.replace(/\/+$/, ""),
    apiKey: raw.apiKey,
    enrich: raw.enrich ?? true,
    enrichTimeoutMs: (raw.enrichTimeoutSeconds ?? DEFAULT_ENRICH_TIMEOUT_SECONDS) * 1000,
    intervalMs: (raw.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * 1000,
    ...(raw.computers ? { computers: raw.computers } : {}),
    ...(raw.hostId ? { hostId: raw.hostId } : {}),
    ...(raw.alerts ? { alerts: raw.alerts } : {}),
  };
}

// The first MAX_SINKS entries of `sinks`; the rest are reported and left out before any work.
function capSinks(json: unknown, issues: string[]): unknown {
  const sinks = (json as { sinks?: unknown } | null)?.sinks;
  if (!sinks || typeof sinks !== "object" || Array.isArray(sinks)) return json;
  const names = Object.keys(sinks);
  if (names.length <= MAX_SINKS) return json;
  issues.push(
    `sinks: ${names.length} entries; only the first ${MAX_SINKS} are used (${names[MAX_SINKS] ?? ""} and after are ignored)`,
  );
  const kept = Object.fromEntries(Object.entries(sinks).slice(0, MAX_SINKS));
  return { ...(json as object), sinks: kept };
}

// A bad top-level setting is reported and left out; the other settings and the sinks still apply.
function parseTopLevel(value: unknown, issues: string[], book?: MemoBook): TopLevel {
  const key = book?.keyOf("top", value);
  const memo = key === undefined ? undefined : book?.get(key);
  if (memo) {
    try {
      return replayParse(value, memo) as TopLevel;
    } catch {
      // a memo that does not fit: zod reads it
    }
  }
  const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
  const topLevel = topLevelFor(isObject ? Object.keys(value) : []);
  const parsed = z.safeParse(topLevel, value);
  if (parsed.success) {
    const kept =
      key === undefined
        ? undefined
        : recordParse(value, parsed.data, secretValuesOf(topLevel, value));
    if (kept && key !== undefined) book?.put(key, kept);
    return parsed.data;
  }
  issues.push(
    ...parsed.error.issues.flatMap((issue) =>
      plainIssues(issue, { root: value, schema: topLevel }),
    ),
  );
  const bad = new Set(parsed.error.issues.map((issue) => issue.path[0]));
  if (bad.has(undefined) || !value || typeof value !== "object") return {};
  const rest = Object.fromEntries(Object.entries(value).filter(([key]) => !bad.has(key)));
  const retried = z.safeParse(topLevel, rest);
  return retried.success ? retried.data : {};
}

// An escalation to a sink that is not configured (or invalid) would never reach anyone.
// "escalate.to" for a single step, "escalate[1].to" for a chain's second.
function unknownEscalationTargets(
  steps: Escalate[] | undefined,
  sinks: Record<string, SinkEntry>,
  path: string,
  chained = (steps?.length ?? 0) > 1,
): string[] {
  return (steps ?? []).flatMap((step, index) =>
    step.to
      .filter((name) => !Object.hasOwn(sinks, name))
      .map((name) => {
        const guess = closestName(name, Object.keys(sinks));
        const hint = guess === undefined ? "" : ` Did you mean "${guess}"?`;
        const valid = Object.keys(sinks).join(", ") || "none";
        return `${chained ? `${path}[${String(index)}]` : path}.to: no valid sink named "${name}".${hint} Valid sinks: ${valid}`;
      }),
  );
}
