// nodemailer's transport for an email entry, with short timeouts.
import type { EmailOptions } from "./email-options.js";

const TIMEOUTS = {
  connectionTimeout: 5_000,
  greetingTimeout: 5_000,
  socketTimeout: 10_000,
  dnsTimeout: 5_000,
};

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
