// The sinks the pictures show, validated by the real config schema; the URLs are placeholders.
import { validateConfig } from "../../src/config/validate-config.js";
import type { Config } from "../../src/core/config.js";

const SAMPLE = {
  sinks: {
    slack: { type: "chat", service: "slack", url: "https://hooks.slack.com/services/T0/B0/x" },
    discord: {
      type: "chat",
      service: "discord",
      url: "https://discord.com/api/webhooks/1/x",
      username: "hook-notify",
    },
    teams: { type: "chat", service: "teams", url: "https://example.logic.azure.com/workflows/x" },
    email: {
      type: "email",
      smtp: { host: "smtp.example.com" },
      from: "hook-notify@example.com",
      to: ["dev@example.com"],
    },
  },
};

// The validated sample config; a schema change that breaks it stops the script.
export function sampleConfig(): Config {
  const { value, issues } = validateConfig(SAMPLE, {});
  if (issues.length > 0) throw new Error(`sample config: ${issues.join("; ")}`);
  return value;
}

// The options of one sample sink, as the sink receives them.
export function sinkOptions(config: Config, name: keyof typeof SAMPLE.sinks): unknown {
  const entry = config.sinks[name];
  if (entry === undefined) throw new Error(`sample config: no sink ${name}`);
  return entry.options;
}
