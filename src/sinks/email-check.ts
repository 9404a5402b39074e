// doctor's check of the email sink: nodemailer's verify (connect, EHLO, auth; no mail is sent).
import { fail, ok, type CheckResult } from "../check-result.js";
import type { SinkEntry } from "../core/config.js";
import { scrub } from "../redact.js";
import { toEmailError } from "./email-error.js";
import type { EmailOptions } from "./email-options.js";
import { transportOptions } from "./email-transport.js";

const SMTP_TIMEOUT_MS = 5_000;

// nodemailer's verify(): the server answers, speaks SMTP and accepts the login; nothing is sent.
export async function checkSmtp(
  entry: SinkEntry,
  secrets: readonly string[],
): Promise<CheckResult> {
  const options = entry.options as EmailOptions;
  const name = `email (${entry.name})`;
  const where = `${options.smtp.host}:${options.smtp.port ?? (options.smtp.secure ? 465 : 587)}`;
  const { createTransport } = await import("nodemailer");
  const transport = createTransport({
    ...transportOptions(options.smtp),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    await transport.verify();
    return ok(name, `SMTP ${where} answered and accepted the login`);
  } catch (error) {
    const message = scrub(toEmailError(error, options, entry.name, false).message, secrets);
    return fail(name, message, "Check smtp.host, smtp.port, smtp.user and smtp.pass.", {
      sink: entry.name,
    });
  } finally {
    transport.close();
  }
}
