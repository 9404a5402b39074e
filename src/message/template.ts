/** The values a template can use, e.g. "{project} · {agent} finished". */
export type TemplateValues = Record<string, string | undefined>;

// Replaces {name} placeholders; unknown names stay as written, missing values become "".
export function fillTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    name in values ? (values[name] ?? "") : whole,
  );
}

/** Every placeholder a template may use, for the config schema's documentation. */
export const TEMPLATE_PLACEHOLDERS = [
  "project",
  "agent",
  "event",
  "message",
  "reason",
  "session_title",
  "session_id",
  "last_message",
  "agent_type",
  "error",
  "tool",
  "denied",
  "duration",
  "message_count",
  "cwd",
  "facts",
  "session_line",
  "token_usage",
  "title",
  "resets",
] as const;
