import type { Validated, Config } from "./validate-config.js";
import { validateConfig } from "./validate-config.js";

const NARROWING_KEYS = new Set(["enabled", "events", "when"]);
const PROJECT_SETTINGS = ["enabled", "templates", "maxBodyLength"] as const;
const PROJECT_TOP_KEYS = new Set(["$schema", "enabled", "templates", "maxBodyLength", "sinks"]);

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
    if (checked.issues.length === 0) applySetting(value, key, checked.value);
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
): void {
  if (key === "enabled") value.enabled = value.enabled && checked.enabled;
  else if (key === "templates") value.templates = { ...value.templates, ...checked.templates };
  else value.maxBodyLength = checked.maxBodyLength;
}

function narrowSink(value: Config, name: string, entry: Record<string, unknown>): string[] {
  const current = value.sinks[name];
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
      sinks: { ...user.sinks, ...sinks.value.sinks },
    },
    issues: [...checked.issues, ...sinks.issues],
    secrets: [...checked.secrets, ...sinks.secrets],
  };
}

function asObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
