// nodemailer's failures as HookNotifyErrors: a code, whether a retry helps, the next step.
import { HookNotifyError } from "../errors.js";
import { scrub, secretPartsOf } from "../redact.js";
import { secretValuesOf } from "../secret-values.js";
import { optionsSchema, type EmailOptions } from "./email-options.js";

// Certificate problems (nodemailer reports them as ESOCKET with the TLS code as originalCode).
const CERT_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/;

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
