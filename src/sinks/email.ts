// E-mail over SMTP with nodemailer (loaded inside send): short timeouts, STARTTLS when offered.
import { maskSecrets } from "../secret-values.js";
import { toEmailError } from "./email-error.js";
import { emailMessage } from "./email-message.js";
import { optionsSchema, type EmailOptions } from "./email-options.js";
import { transportOptions } from "./email-transport.js";
import { defineSink } from "./sink.js";

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
