// E-mail over SMTP with nodemailer (loaded inside send): short timeouts, STARTTLS when offered.
import * as z from "../zod.js";
import { HookNotifyError } from "../errors.js";
import type { Level, Notification } from "../core/notification.js";
import { maskSecrets, secretValuesOf } from "../secret-values.js";
import { scrub, secretPartsOf } from "../redact.js";
import { inertText } from "../shown-text.js";
import { defineSink } from "./sink.js";

const TIMEOUTS = {
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 10_000,
  dnsTimeout: 5_000,
};

// Certificate problems (nodemailer reports them as ESOCKET with the TLS code as originalCode).
const CERT_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/;

function optionsSchema() {
  return z.strictObject({
    smtp: z
      .strictObject({
        host: z.string().check(z.minLength(1), z.describe("SMTP server host name.")),
        port: z.optional(
          z
            .number()
            .check(
              z.int(),
              z.gte(1),
              z.lte(65_535),
              z.describe("SMTP server port. Default 587, or 465 when secure is true."),
            ),
        ),
        secure: z.optional(
          z
            .boolean()
            .check(
              z.describe(
                "true: TLS from the first byte (port 465). Otherwise STARTTLS is used when the server offers it.",
              ),
            ),
        ),
        user: z.optional(
          z.string().check(
            z.meta({
              secret: true,
              description:
                "User name for SMTP authentication; none: no login. Secret: some providers' user is an access key id, and servers echo it in refusals.",
            }),
          ),
        ),
        pass: z.optional(
          z.string().check(
            z.meta({
              secret: true,
              description: "Password for SMTP authentication (an app password). Secret.",
            }),
          ),
        ),
        requireTLS: z.optional(
          z
            .boolean()
            .check(z.describe("true: fail unless the connection is upgraded with STARTTLS.")),
        ),
        rejectUnauthorized: z.optional(
          z.boolean().check(z.describe("false: accept a self-signed server certificate.")),
        ),
      })
      .check(z.describe("The SMTP server to send through.")),
    from: z
      .string()
      .check(
        z.regex(/@/, "Expected an e-mail address"),
        z.describe('Sender address, e.g. "hook-notify <me@example.com>".'),
      ),
    to: z
      .array(z.string().check(z.regex(/@/, "Expected an e-mail address")))
      .check(z.minLength(1), z.describe("Recipient addresses (at least one).")),
    subjectPrefix: z.optional(
      z
        .string()
        .check(z.meta({ description: "Text before the subject.", default: "[hook-notify]" })),
    ),
  });
}

export type EmailOptions = z.infer<ReturnType<typeof optionsSchema>>;

/** The message as it is sent (and as --dry-run shows it). */
export interface EmailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

// Subject "[hook-notify] shop-api: Session ended with an error"; the title is "project · text".
export function emailMessage(notification: Notification, options: EmailOptions): EmailMessage {
  const { project, title, body } = notification;
  const text = title.startsWith(`${project} · `) ? title.slice(project.length + 3) : title;
  const subject = `${options.subjectPrefix ?? "[hook-notify]"} ${project}: ${text}`.trim();
  const facts = factsOf(notification);
  const plain = [title, "", body, "", ...facts.map(([k, v]) => `${k}: ${v}`)].join("\n");
  return {
    from: options.from,
    to: options.to,
    subject,
    text: `${plain}\n`,
    html: emailHtml(notification, facts),
  };
}

function factsOf(n: Notification): [string, string][] {
  const facts: [string, string | undefined][] = [
    ["Project", n.project],
    ["Event", n.failure ? `${n.event} (failure)` : n.event],
    ["Session", n.sessionTitle ? `${n.sessionTitle} (${n.sessionId ?? "?"})` : n.sessionId],
    ["Directory", n.cwd],
    ["Time", n.timestamp],
  ];
  // Event facts (a directory, a session id) are outside text: one inert line each.
  return facts
    .filter((fact): fact is [string, string] => fact[1] !== undefined)
    .map(([key, value]) => [key, inertText(value, "line")]);
}

const ACCENTS: Record<Level, string> = {
  failure: "#c62828",
  attention: "#b26a00",
  done: "#2e7d32",
  info: "#1565c0",
  limit: "#e65100",
};

// A small inline-styled card: mail clients drop <style>; a red accent marks failures.
function emailHtml(n: Notification, facts: [string, string][]): string {
  const accent = ACCENTS[n.level];
  const rows = facts
    .map(
      ([k, v]) =>
        `<tr><td style="color:#666;padding:2px 12px 2px 0">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`,
    )
    .join("");
  return [
    `<div style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px;color:#222;max-width:640px">`,
    `<div style="border-left:4px solid ${accent};padding:8px 16px">`,
    `<h2 style="margin:0 0 8px;font-size:17px;color:${accent}">${escapeHtml(n.title)}</h2>`,
    `<p style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(n.body)}</p>`,
    `<table style="border-collapse:collapse;font-size:13px">${rows}</table>`,
    `</div><p style="color:#999;font-size:12px;margin:8px 0 0 20px">Sent by hook-notify</p></div>`,
  ].join("\n");
}

// Agent text goes into HTML: every markup character is escaped.
export function escapeHtml(text: string): string {
  const entities: Record<string, string> = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
  };
  return text.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

// Maps nodemailer's error codes to ours, with the next step; no secret of the entry (the schema
// marks user and pass) appears, even when the server's reply quotes it.
export function toEmailError(
  error: unknown,
  options: EmailOptions,
  sinkName: string,
  aborted: boolean,
) {
  const e = error as {
    code?: string;
    originalCode?: string;
    responseCode?: number;
    message?: string;
  };
  const where = `${options.smtp.host}:${options.smtp.port ?? (options.smtp.secure ? 465 : 587)}`;
  const secrets = secretValuesOf(optionsSchema(), options).flatMap(secretPartsOf);
  const detail = scrub(e.message ?? String(error), secrets);
  const fail = (
    code: "SINK_AUTH" | "SINK_NETWORK" | "SINK_TIMEOUT" | "SINK_FAILED",
    retryable: boolean,
    hint: string,
  ) =>
    new HookNotifyError(code, `${sinkName}: SMTP ${where}: ${detail}. ${hint}`, {
      sink: sinkName,
      retryable,
      cause: error,
    });
  if (aborted || e.code === "EABORT")
    return fail("SINK_TIMEOUT", true, "The deadline passed; it will be retried.");
  const code = CERT_ERROR.test(e.originalCode ?? "") ? "ETLS" : (e.code ?? "");
  switch (code) {
    case "EAUTH":
    case "ENOAUTH":
      return fail("SINK_AUTH", false, "Check smtp.user and smtp.pass in the config.");
    case "ETIMEDOUT":
      return fail("SINK_TIMEOUT", true, "The server did not answer in time; it will be retried.");
    case "ECONNECTION":
    case "ESOCKET":
    case "EDNS":
    case "EPROXY":
    case "EPROTOCOL":
      return fail("SINK_NETWORK", true, "Check smtp.host and smtp.port; it will be retried.");
    case "ETLS":
    case "EREQUIRETLS":
      return fail(
        "SINK_NETWORK",
        false,
        "TLS failed: check smtp.secure/requireTLS, or set rejectUnauthorized: false for a self-signed certificate.",
      );
    case "EENVELOPE":
      return fail(
        "SINK_FAILED",
        false,
        "The server refused the sender or recipients: check from and to.",
      );
    default: {
      const temporary =
        e.responseCode === undefined || (e.responseCode >= 400 && e.responseCode < 500);
      return fail(
        "SINK_FAILED",
        temporary,
        temporary ? "It will be retried." : "The server rejected the message.",
      );
    }
  }
}

// nodemailer's transport options for the smtp entry (send and doctor's verify use the same ones).
export function transportOptions(smtp: EmailOptions["smtp"]) {
  const { host, port, secure, user, pass, requireTLS, rejectUnauthorized } = smtp;
  return {
    host,
    ...(port === undefined ? {} : { port }),
    ...(secure === undefined ? {} : { secure }),
    ...(user === undefined ? {} : { auth: { user, pass: pass ?? "" } }),
    ...(requireTLS === undefined ? {} : { requireTLS }),
    ...(rejectUnauthorized === undefined ? {} : { tls: { rejectUnauthorized } }),
    ...TIMEOUTS,
  };
}

// Sends one mail; `when: "failure"` (routing) turns this into a failures-only mail.
export const email = defineSink<EmailOptions>({
  type: "email",
  options: optionsSchema,
  remote: true,
  describeTarget: (options) => `${options.smtp.host} → ${options.to.join(", ")}`,
  check: async (entry, ctx) => (await import("./email-check.js")).checkSmtp(entry, ctx.secrets),
  starters: [
    {
      choice: "email",
      secret: { name: "SMTP_PASS", what: "the SMTP password" },
      entry: (pass, { host, port, user, address }) => ({
        type: "email",
        smtp: { host, port, user, pass },
        from: `hook-notify <${address}>`,
        to: [address],
      }),
    },
  ],
  explain: ({ code }) =>
    code === "SINK_AUTH"
      ? "the SMTP server refused the login: check smtp.user and smtp.pass"
      : undefined,
  // Masked by the schema's secret marks: the login too (some providers' user is an access key id).
  render: (notification, options) => ({
    smtp: maskSecrets(optionsSchema(), options).smtp,
    ...emailMessage(notification, options),
  }),
  send: async (notification, options, ctx) => {
    const { createTransport } = await import("nodemailer");
    const transport = createTransport(transportOptions(options.smtp));
    try {
      // The Message-ID the server accepted, for the log's receipt (find the mail by it).
      const info = await transport.sendMail({
        ...emailMessage(notification, options),
        signal: ctx.signal,
      });
      return typeof info.messageId === "string" ? { messageId: info.messageId } : undefined;
    } catch (error) {
      throw toEmailError(error, options, ctx.sinkName, ctx.signal.aborted);
    } finally {
      transport.close();
    }
  },
});
