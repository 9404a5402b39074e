import { DEFAULT_COOLDOWNS } from "../core/defaults.js";
import type { Validated } from "./validate-config.js";
import type { Config, Cooldowns } from "../core/config.js";
import { validateConfig } from "./validate-config.js";
import { own } from "../own.js";

const NARROWING_KEYS = new Set(["enabled", "events", "when"]);
// The noise rules: a project may only make them stricter (see quieter()).
const QUIETING = [
  "dedupeSeconds",
  "cooldown",
  "minTurnSeconds",
  "quietHours",
  "localSinksOverSsh",
  "coalesceSeconds",
] as const;
const PROJECT_SETTINGS = ["enabled", "templates", "maxBodyLength", ...QUIETING] as const;
const PROJECT_TOP_KEYS = new Set(["$schema", ...PROJECT_SETTINGS, "sinks"]);

// A project file may mute, narrow and reword; only with the user's allowProjectSinks may it add targets.
export function mergeProjectConfig(
  user: Config,
  json: unknown,
  env: Readonly<Record<string, string | undefined>>,
): Validated {
  if (!json || typeof json !== "object" || Array.isArray(json)) {
    return { value: user, issues: ["expected a JSON object; the file was ignored"], secrets: [] };
  }
  if (user.allowProjectSinks) return mergeTrusted(user, json as Record<string, unknown>, env);
  const issues: string[] = [];
  const raw = json as Record<string, unknown>;
  for (const key of Object.keys(raw).filter((k) => !PROJECT_TOP_KEYS.has(k))) {
    issues.push(`${key}: not allowed in a project file; ignored`);
  }
  const value: Config = { ...user, sinks: { ...user.sinks } };
  for (const key of PROJECT_SETTINGS) {
    if (raw[key] === undefined) continue;
    // No ${VAR} from the environment here: a cloned repo's template could otherwise carry
    // $AWS_SECRET_ACCESS_KEY to your own chat sinks. (With allowProjectSinks it is trusted.)
    if (/\$\{[A-Za-z_]/.test(JSON.stringify(raw[key]))) {
      issues.push(
        `${key}: \${VAR} is not expanded in a project file, so a cloned repo cannot read your environment; the variables were left empty. Set "allowProjectSinks": true in your own config to trust project files.`,
      );
    }
    // One at a time, so a bad setting is ignored instead of resetting the others to defaults.
    const checked = validateConfig({ [key]: raw[key] }, {});
    issues.push(...checked.issues);
    if (checked.issues.length === 0) issues.push(...applySetting(value, key, checked.value));
  }
  for (const [name, entry] of Object.entries(asObject(raw.sinks))) {
    issues.push(...narrowSink(value, name, asObject(entry)));
  }
  return { value, issues, secrets: [] };
}

// Mute, reword, resize: a project cannot turn hook-notify on where the user turned it off.
function applySetting(
  value: Config,
  key: (typeof PROJECT_SETTINGS)[number],
  checked: Config,
): string[] {
  if (key === "enabled") value.enabled = value.enabled && checked.enabled;
  else if (key === "templates") value.templates = { ...value.templates, ...checked.templates };
  else if (key === "maxBodyLength") value.maxBodyLength = checked.maxBodyLength;
  else if (!quieter(value, key, checked))
    return [
      `${key}: a project file can only make the noise rules stricter, and your own config is stricter here: ${value[key] === undefined ? "none" : JSON.stringify(value[key])} applies.`,
    ];
  return [];
}

// Longer windows (de-duplication, coalescing) and cool-downs, a higher minimum turn, quiet hours
// where the user set none, and local sinks off over SSH: each only ever holds back more than the
// user's own file does.
// Returns false when the project's value did not apply as written.
function quieter(value: Config, key: (typeof QUIETING)[number], checked: Config): boolean {
  if (key === "dedupeSeconds" || key === "minTurnSeconds" || key === "coalesceSeconds") {
    value[key] = Math.max(value[key], checked[key]);
    return value[key] === checked[key];
  }
  if (key === "quietHours") {
    value.quietHours ??= checked.quietHours;
    return value.quietHours === checked.quietHours;
  }
  if (key === "localSinksOverSsh") {
    value.localSinksOverSsh &&= checked.localSinksOverSsh;
    return value.localSinksOverSsh === checked.localSinksOverSsh;
  }
  const merged = { ...DEFAULT_COOLDOWNS, ...value.cooldown };
  const wanted = Object.entries(checked.cooldown ?? {}) as [EventKind, number][];
  for (const [kind, seconds] of wanted) merged[kind] = Math.max(merged[kind] ?? 0, seconds);
  value.cooldown = merged;
  return wanted.every(([kind, seconds]) => merged[kind] === seconds);
}

type EventKind = keyof Cooldowns;

function narrowSink(value: Config, name: string, entry: Record<string, unknown>): string[] {
  const current = own(value.sinks, name);
  const extra = Object.keys(entry).filter((key) => !NARROWING_KEYS.has(key));
  if (!current || extra.length > 0) {
    return [
      `sinks.${name}: a project file can only turn off or narrow the user's sinks (enabled, events, when); it cannot add sinks or set ${extra.join(", ") || "new targets"}, so a cloned repo cannot send your notifications elsewhere. Set "allowProjectSinks": true in your own config to allow it.`,
    ];
  }
  const events = Array.isArray(entry.events)
    ? current.events.filter((e) => (entry.events as unknown[]).includes(e))
    : current.events;
  value.sinks[name] = {
    ...current,
    events,
    enabled: entry.enabled === false ? false : current.enabled,
    when: entry.when === "failure" ? "failure" : current.when,
  };
  return [];
}

function mergeTrusted(
  user: Config,
  raw: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): Validated {
  const checked = validateConfig({ ...raw, sinks: {} }, env);
  const sinks = validateConfig({ sinks: raw.sinks ?? {} }, env);
  return {
    value: {
      ...user,
      enabled: raw.enabled === undefined ? user.enabled : checked.value.enabled,
      templates: { ...user.templates, ...checked.value.templates },
      maxBodyLength:
        raw.maxBodyLength === undefined ? user.maxBodyLength : checked.value.maxBodyLength,
      ...trustedRules(user, raw, checked.value),
      sinks: { ...user.sinks, ...sinks.value.sinks },
    },
    issues: [...checked.issues, ...sinks.issues],
    secrets: [...checked.secrets, ...sinks.secrets],
    unresolved: sinks.unresolved,
  };
}

// A trusted project file sets the noise rules like the user's own file does.
function trustedRules(
  user: Config,
  raw: Record<string, unknown>,
  project: Config,
): Partial<Config> {
  const set = (key: string): boolean => raw[key] !== undefined;
  return {
    dedupeSeconds: set("dedupeSeconds") ? project.dedupeSeconds : user.dedupeSeconds,
    cooldown: { ...user.cooldown, ...project.cooldown },
    minTurnSeconds: set("minTurnSeconds") ? project.minTurnSeconds : user.minTurnSeconds,
    quietHours: set("quietHours") ? project.quietHours : user.quietHours,
    localSinksOverSsh: set("localSinksOverSsh")
      ? project.localSinksOverSsh
      : user.localSinksOverSsh,
    coalesceSeconds: set("coalesceSeconds") ? project.coalesceSeconds : user.coalesceSeconds,
  };
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
