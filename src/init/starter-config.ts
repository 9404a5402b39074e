// The starter config `hook-notify init` writes: pure data, secrets only as ${ENV_VAR} references.
import { CHAT_SERVICES, type ChatService } from "../sinks/chat/index.js";

/** What --sinks accepts: the local sinks, each chat service, email and the generic webhook. */
export const SINK_CHOICES = ["desktop", "sound", ...CHAT_SERVICES, "email", "webhook"] as const;
export type SinkChoice = (typeof SINK_CHOICES)[number];

/** The environment variable that holds each sink's secret, and what that secret is. */
export const SECRET_VARS: Partial<Record<SinkChoice, { name: string; what: string }>> = {
  slack: { name: "SLACK_WEBHOOK_URL", what: "the Slack webhook URL" },
  discord: { name: "DISCORD_WEBHOOK_URL", what: "the Discord webhook URL" },
  teams: { name: "TEAMS_WEBHOOK_URL", what: "the Teams Workflows webhook URL" },
  googlechat: { name: "GOOGLE_CHAT_WEBHOOK_URL", what: "the Google Chat webhook URL" },
  mattermost: { name: "MATTERMOST_WEBHOOK_URL", what: "the Mattermost webhook URL" },
  ntfy: { name: "NTFY_URL", what: "the ntfy topic URL (https://ntfy.sh/<topic>)" },
  email: { name: "SMTP_PASS", what: "the SMTP password" },
  webhook: { name: "HOOK_NOTIFY_WEBHOOK_SECRET", what: "the webhook signing secret (whsec_…)" },
};

/** The webhook's URL may carry a token too, so it comes from the environment as well. */
export const WEBHOOK_URL_VAR = "HOOK_NOTIFY_WEBHOOK_URL";

/** Everything the starter needs besides the sink list; each field has a default. */
export interface StarterAnswers {
  /** Sink → the env var holding its secret (defaults: SECRET_VARS). */
  envNames: Partial<Record<SinkChoice, string>>;
  smtp: { host: string; port: number; user: string; address: string };
}

export const DEFAULT_SMTP: StarterAnswers["smtp"] = {
  host: "smtp.example.com",
  port: 587,
  user: "you@example.com",
  address: "you@example.com",
};

// Parses "desktop, slack" into known choices; unknown names come back separately.
export function parseSinkList(text: string): { sinks: SinkChoice[]; unknown: string[] } {
  const names = text
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const isChoice = (name: string): name is SinkChoice =>
    (SINK_CHOICES as readonly string[]).includes(name);
  return {
    sinks: [...new Set(names.filter(isChoice))],
    unknown: names.filter((name) => !isChoice(name)),
  };
}

// The config object, with "$schema" first so editors offer completion from the first line.
export function buildStarterConfig(
  sinks: readonly SinkChoice[],
  answers: StarterAnswers,
  schemaPath: string,
): Record<string, unknown> {
  const ref = (sink: SinkChoice) =>
    `\${${answers.envNames[sink] ?? SECRET_VARS[sink]?.name ?? ""}}`;
  const entries = Object.fromEntries(sinks.map((sink) => [sink, entryFor(sink, ref, answers)]));
  return { $schema: schemaPath, sinks: entries };
}

function entryFor(
  sink: SinkChoice,
  ref: (sink: SinkChoice) => string,
  answers: StarterAnswers,
): Record<string, unknown> {
  switch (sink) {
    case "desktop":
    case "sound":
      return { type: sink };
    case "email": {
      const { host, port, user, address } = answers.smtp;
      return {
        type: "email",
        smtp: { host, port, user, pass: ref(sink) },
        from: `hook-notify <${address}>`,
        to: [address],
      };
    }
    case "webhook":
      return { type: "webhook", url: `\${${WEBHOOK_URL_VAR}}`, secret: ref(sink) };
    case "slack":
    case "discord":
    case "teams":
    case "googlechat":
    case "mattermost":
    case "ntfy":
      return { type: "chat", service: sink satisfies ChatService, url: ref(sink) };
  }
}

// The variables the written file reads, for the "export …" next steps.
export function envVarsOf(sinks: readonly SinkChoice[], answers: StarterAnswers): string[] {
  return sinks.flatMap((sink) => {
    const name = answers.envNames[sink] ?? SECRET_VARS[sink]?.name;
    if (name === undefined) return [];
    return sink === "webhook" ? [WEBHOOK_URL_VAR, name] : [name];
  });
}
