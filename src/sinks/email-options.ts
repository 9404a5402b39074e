// An email entry's options: the SMTP server, its login, from and to.
import * as z from "../zod.js";

export function optionsSchema() {
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
