// The questions `hook-notify init` asks on a terminal, with a prompt library (@inquirer/prompts:
// a multi-select for the sinks, inputs checked as they are typed); never used unattended. Built
// into dist/prompts.cjs of its own (scripts/build.mjs): no other command carries the library.
import { checkbox, confirm, input } from "@inquirer/prompts";
import type { SinkChoice, StarterAnswers } from "./starter-config.js";

/** What init offers, from starter-config.ts (passed in: this bundle carries no sink registry). */
export interface StarterOffer {
  choices: readonly SinkChoice[];
  defaults: readonly SinkChoice[];
  secrets: Readonly<Partial<Record<SinkChoice, { name: string; what: string }>>>;
  smtp: StarterAnswers["smtp"];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Where one prompt reads and draws: the terminal (commands/terminal-prompt.ts's output). A new
 * one per prompt: the library ends its output stream when the prompt is answered. */
export type PromptContext = () => { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };

// Which sinks, which env vars hold their secrets, and the SMTP server for email.
export async function askStarter(
  context: PromptContext,
  offer: StarterOffer,
): Promise<{ sinks: SinkChoice[]; answers: StarterAnswers }> {
  const sinks = await checkbox(
    {
      message: "Which sinks? (space selects, enter confirms)",
      choices: offer.choices.map((value) => ({ value, checked: offer.defaults.includes(value) })),
      pageSize: offer.choices.length,
      required: true,
    },
    context(),
  );
  const answers: StarterAnswers = { envNames: {}, smtp: { ...offer.smtp } };
  for (const sink of sinks) {
    const secret = offer.secrets[sink];
    if (!secret) continue;
    answers.envNames[sink] = await ask(
      context,
      `Environment variable holding ${secret.what}`,
      secret.name,
      (name) => ENV_NAME.test(name) || "letters, digits and _, not starting with a digit",
    );
  }
  if (sinks.includes("email")) await askSmtp(context, answers.smtp);
  return { sinks, answers };
}

async function askSmtp(context: PromptContext, smtp: StarterAnswers["smtp"]): Promise<void> {
  smtp.host = await ask(context, "SMTP server", smtp.host, (host) =>
    /^[\w.-]+$/.test(host) ? true : "a host name, like smtp.gmail.com",
  );
  const port = await ask(context, "SMTP port", String(smtp.port), (text) =>
    /^\d{1,5}$/.test(text) ? true : "a port number, like 587",
  );
  smtp.port = Number(port);
  smtp.user = await ask(context, "SMTP user", smtp.user, (user) => user.length > 0 || "a user");
  smtp.address = await ask(context, "Send to (and from) address", smtp.address, (address) =>
    address.includes("@") ? true : "an e-mail address",
  );
}

// init's last question: send a sample through the new config now?
export async function askToTest(context: PromptContext): Promise<boolean> {
  return confirm({ message: "Send a test notification now?", default: true }, context());
}

function ask(
  context: PromptContext,
  message: string,
  fallback: string,
  validate: (answer: string) => true | string,
): Promise<string> {
  return input(
    { message, default: fallback, validate: (text) => validate(text.trim()) },
    context(),
  ).then((answer) => answer.trim());
}
