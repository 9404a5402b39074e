// Writes one HTML mock per service and case from the exact payloads the sinks send.
// Usage (through scripts/render-pictures.mjs): node entry.mjs <repo root> <output dir>
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildChatRequest, type ChatOptions } from "../../src/sinks/chat/index.js";
import { emailMessage } from "../../src/sinks/email-message.js";
import type { EmailOptions } from "../../src/sinks/email-options.js";
import { sampleConfig, sinkOptions } from "./config.js";
import { renderDiscord, type DiscordPayload } from "./discord.js";
import { renderEmail } from "./email.js";
import { CASES, notificationFor } from "./notifications.js";
import { renderSlack, type SlackPayload } from "./slack.js";
import { renderTeams, type TeamsPayload } from "./teams.js";

const [root, outDir] = process.argv.slice(2);
if (root === undefined || outDir === undefined) throw new Error("usage: entry.mjs <root> <out>");

const config = sampleConfig();
const chat = (name: "slack" | "discord" | "teams") => sinkOptions(config, name) as ChatOptions;
const pages: string[] = [];
for (const { name, fixture } of CASES) {
  const n = notificationFor(root, fixture, config);
  const time = n.timestamp;
  const bodies = {
    slack: buildChatRequest(n, chat("slack")).body as SlackPayload,
    discord: buildChatRequest(n, chat("discord")).body as DiscordPayload,
    teams: buildChatRequest(n, chat("teams")).body as TeamsPayload,
  };
  const html = {
    slack: renderSlack(bodies.slack, { app: "hook-notify", time }),
    discord: renderDiscord(bodies.discord, { name: "hook-notify", time }),
    teams: renderTeams(bodies.teams, { sender: "Workflows", time }),
    email: renderEmail(emailMessage(n, sinkOptions(config, "email") as EmailOptions), { time }),
  };
  for (const [service, text] of Object.entries(html)) {
    const file = join(outDir, `${service}-${name}.html`);
    writeFileSync(file, text);
    pages.push(file);
  }
}
process.stdout.write(`${JSON.stringify(pages)}\n`);
