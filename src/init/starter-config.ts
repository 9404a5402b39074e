// The starter config `hook-notify init` writes: pure data, secrets only as ${ENV_VAR} references.
// Each sink says what its starter entries are (`starters` in its module); this file only gathers.
import { sinks } from "../sinks/index.js";
import type { Starter, StarterSmtp } from "../sinks/sink.js";

const STARTERS: readonly Starter[] = sinks.flatMap((sink) => sink.starters);

/** What --sinks accepts: each sink's starters, in registry order (chat: one per service). */
export const SINK_CHOICES: readonly string[] = STARTERS.map((starter) => starter.choice);
export type SinkChoice = string;

/** Written when nobody chooses: the sinks that fire on this machine (desktop, sound). */
export const DEFAULT_CHOICES: readonly string[] = sinks
  .filter((sink) => !sink.remote)
  .flatMap((sink) => sink.starters.filter((starter) => !starter.chosenOnly))
  .map((starter) => starter.choice);

/** The environment variable that holds each choice's secret, and what that secret is. */
export const SECRET_VARS: Readonly<Record<SinkChoice, { name: string; what: string }>> =
  Object.fromEntries(STARTERS.flatMap((s) => (s.secret ? [[s.choice, s.secret]] : [])));

/** Everything the starter needs besides the sink list; each field has a default. */
export interface StarterAnswers {
  /** Sink → the env var holding its secret (defaults: SECRET_VARS). */
  envNames: Partial<Record<SinkChoice, string>>;
  smtp: StarterSmtp;
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
  const isChoice = (name: string): boolean => SINK_CHOICES.includes(name);
  return {
    sinks: [...new Set(names.filter(isChoice))],
    unknown: names.filter((name) => !isChoice(name)),
  };
}

// The config object, with "$schema" first so editors offer completion from the first line.
export function buildStarterConfig(
  choices: readonly SinkChoice[],
  answers: StarterAnswers,
  schemaPath: string,
): Record<string, unknown> {
  const entries = choices.flatMap((choice) => {
    const starter = STARTERS.find((s) => s.choice === choice);
    if (!starter) return [];
    const ref = `\${${secretVar(starter, answers) ?? ""}}`;
    return [[choice, starter.entry(ref, answers.smtp)]];
  });
  return { $schema: schemaPath, sinks: Object.fromEntries(entries) };
}

// The variables the written file reads, for the "export …" next steps.
export function envVarsOf(choices: readonly SinkChoice[], answers: StarterAnswers): string[] {
  return choices.flatMap((choice) => {
    const starter = STARTERS.find((s) => s.choice === choice);
    const name = starter && secretVar(starter, answers);
    return name === undefined ? [] : [...(starter?.vars ?? []), name];
  });
}

function secretVar(starter: Starter, answers: StarterAnswers): string | undefined {
  return answers.envNames[starter.choice] ?? starter.secret?.name;
}
