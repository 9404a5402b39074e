// The questions `hook-notify init` asks on a terminal; never used unattended.
import {
  DEFAULT_CHOICES,
  DEFAULT_SMTP,
  parseSinkList,
  SECRET_VARS,
  type SinkChoice,
  type StarterAnswers,
  SINK_CHOICES,
} from "./starter-config.js";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Where the questions go: the terminal (commands/terminal-prompt.ts), or a test's script. */
export interface Questions {
  ask: (question: string) => Promise<string>;
  /** A line between questions (readline's own write would type it in as an answer). */
  say: (text: string) => void;
}

// Asks until the answer is valid; an empty answer takes the default shown in brackets.
async function askFor(
  prompt: Questions,
  question: string,
  fallback: string,
  isValid: (answer: string) => boolean,
): Promise<string> {
  for (;;) {
    const answer = (await prompt.ask(`${question} [${fallback}]: `)).trim() || fallback;
    if (isValid(answer)) return answer;
    prompt.say(`  "${answer}" is not valid here.\n`);
  }
}

// Which sinks, which env vars hold their secrets, and the SMTP server for email.
export async function askStarter(
  prompt: Questions,
): Promise<{ sinks: SinkChoice[]; answers: StarterAnswers }> {
  prompt.say(`Sinks: ${SINK_CHOICES.join(", ")}\n`);
  const list = await askFor(
    prompt,
    "Which sinks? (comma-separated)",
    DEFAULT_CHOICES.join(","),
    (text) => {
      const parsed = parseSinkList(text);
      return parsed.unknown.length === 0 && parsed.sinks.length > 0;
    },
  );
  const { sinks } = parseSinkList(list);
  const answers: StarterAnswers = { envNames: {}, smtp: { ...DEFAULT_SMTP } };
  for (const sink of sinks) {
    const secret = SECRET_VARS[sink];
    if (!secret) continue;
    answers.envNames[sink] = await askFor(
      prompt,
      `Environment variable holding ${secret.what}`,
      secret.name,
      (name) => ENV_NAME.test(name),
    );
  }
  if (sinks.includes("email")) {
    const smtp = answers.smtp;
    smtp.host = await askFor(prompt, "SMTP server", smtp.host, (host) => /^[\w.-]+$/.test(host));
    const port = await askFor(prompt, "SMTP port", String(smtp.port), (p) => /^\d{1,5}$/.test(p));
    smtp.port = Number(port);
    smtp.user = await askFor(prompt, "SMTP user", smtp.user, (user) => user.length > 0);
    smtp.address = await askFor(prompt, "Send to (and from) address", smtp.address, (a) =>
      a.includes("@"),
    );
  }
  return { sinks, answers };
}
