// init's flow: refuse an existing file, pick the sinks (asked or given), write, print next steps.
import { mkdir, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { Style } from "../style.js";
import { SCHEMA_REF, writeSchemaCopy } from "./schema-copy.js";
import { EXIT } from "../core/exit-code.js";
import { clientNames } from "../clients/index.js";
import {
  buildStarterConfig,
  DEFAULT_CHOICES,
  DEFAULT_SMTP,
  envVarsOf,
  parseSinkList,
  SECRET_VARS,
  SINK_CHOICES,
  type SinkChoice,
  type StarterAnswers,
} from "./starter-config.js";

/** What writeStarter needs from the terminal; `ask` is absent when nobody can answer. */
export interface StarterIo {
  file: string;
  sinkList: string | undefined;
  force: boolean;
  ask: (() => Promise<{ sinks: SinkChoice[]; answers: StarterAnswers }>) | undefined;
  out: (text: string) => void;
  err: (line: string) => void;
  style: Style;
  /** How the person runs hook-notify here (settings/self-command.ts); "hook-notify" by default. */
  self?: string;
}

// Returns the exit code: 0 written, 1 refused (an existing file), 2 an unknown --sinks name.
export async function writeStarter(io: StarterIo): Promise<number> {
  const refuse = `${io.file} already exists; nothing was written. Edit it, or run "hook-notify init --force" to replace it.`;
  if (!io.force && existsSync(io.file)) {
    io.err(refuse);
    return 1;
  }
  const answers: StarterAnswers = { envNames: {}, smtp: { ...DEFAULT_SMTP } };
  let sinks = [...DEFAULT_CHOICES];
  if (io.sinkList !== undefined) {
    const parsed = parseSinkList(io.sinkList);
    if (parsed.unknown.length > 0 || parsed.sinks.length === 0) {
      io.err(
        `--sinks: unknown sink ${parsed.unknown.join(", ") || "(none given)"}; use some of: ${SINK_CHOICES.join(",")}`,
      );
      return EXIT.usage;
    }
    sinks = parsed.sinks;
  } else if (io.ask) {
    const asked = await io.ask();
    sinks = asked.sinks;
    Object.assign(answers, asked.answers);
  }
  const config = buildStarterConfig(sinks, answers, SCHEMA_REF);
  // Private from the start: users paste secrets into this file despite the ${VAR} references.
  await mkdir(dirname(io.file), { recursive: true, mode: 0o700 });
  await writeSchemaCopy(io.file);
  try {
    await writeFile(io.file, `${JSON.stringify(config, null, 2)}\n`, {
      flag: io.force ? "w" : "wx",
      mode: 0o600,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    io.err(refuse);
    return 1;
  }
  io.out(nextSteps(io, sinks, answers));
  return 0;
}

// "  # tgram://BOT_TOKEN/CHAT_ID …": what a variable holds, in the form its sink reads.
function formOf(name: string): string {
  const secret = Object.values(SECRET_VARS).find((held) => held.name === name);
  return secret ? `  # ${secret.what}` : "";
}

function nextSteps(io: StarterIo, sinks: readonly SinkChoice[], answers: StarterAnswers): string {
  const { style } = io;
  const lines = [`${style.ok(style.okMark)} Wrote ${io.file} (sinks: ${sinks.join(", ")}).`, ""];
  lines.push("Next steps:");
  const vars = envVarsOf(sinks, answers);
  if (vars.length > 0) {
    lines.push("  Export the secrets where the agent runs (e.g. in your shell profile):");
    lines.push(...vars.map((name) => `    export ${name}='…'${formOf(name)}`));
  }
  if (sinks.includes("email") && answers.smtp.host === DEFAULT_SMTP.host) {
    lines.push(`  Set smtp.host, smtp.user, from and to in sinks.email.`);
  }
  const self = io.self ?? "hook-notify";
  const width = `${self} install`.length;
  const step = (command: string, what: string) =>
    `  ${style.bold(`${self} ${command}`)}${" ".repeat(width - self.length - command.length + 2)}${what}`;
  lines.push(
    step("doctor", "checks the setup"),
    step("test", "sends a sample notification"),
    step("install", `adds hook-notify to ${clientNames("and")}`),
  );
  return `${lines.join("\n")}\n`;
}
