import { describe, expect, it } from "vitest";
import { HookNotifyError } from "../../src/errors.js";
import { email } from "../../src/sinks/email.js";
import { emailMessage } from "../../src/sinks/email-message.js";
import { escapeHtml } from "../../src/sinks/email-html.js";
import type { EmailOptions } from "../../src/sinks/email-options.js";
import { freePort } from "../helpers/connect-proxy.js";
import { sampleNotification, testDeps } from "../helpers/sample-notification.js";
import { selfSignedCert, startSilentServer, startSmtpServer } from "../helpers/smtp-server.js";

const PASS = "SMTP-PASSWORD-xyzzy-31337";
const base = { from: "agent@example.com", to: ["dev@example.com", "ops@example.com"] };

function options(port: number, smtp: Partial<EmailOptions["smtp"]> = {}): EmailOptions {
  return { ...base, smtp: { host: "127.0.0.1", port, secure: false, ...smtp } };
}

function send(opts: EmailOptions, ms = 5_000) {
  return email.send(sampleNotification(), opts, {
    signal: AbortSignal.timeout(ms),
    deps: testDeps(),
    sinkName: "mail",
    wait: true,
  });
}

async function failure(promise: Promise<unknown>): Promise<HookNotifyError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HookNotifyError);
  expect((error as Error).message).not.toContain(PASS);
  return error as HookNotifyError;
}

describe("email sink against smtp-server", () => {
  it("delivers a text + HTML mail with the envelope and subject", async () => {
    const server = await startSmtpServer();
    await send(options(server.port));
    const [mail] = server.messages;
    expect(mail).toMatchObject({
      from: "agent@example.com",
      to: ["dev@example.com", "ops@example.com"],
    });
    expect(mail!.subject).toBe("[hook-notify] shop-api: Session ended with an error");
    expect(mail!.text).toContain('Tests failed: <script>alert("x")</script> & more');
    expect(mail!.text).toContain("Event: SessionEnd (failure)");
    expect(mail!.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more");
    expect(mail!.html).not.toContain("<script>");
    expect(mail!.html).toContain("#c62828");
  });

  it("logs in with user and pass", async () => {
    const server = await startSmtpServer({ auth: { user: "bot", pass: PASS } });
    await send(options(server.port, { user: "bot", pass: PASS }));
    expect(server.messages[0]?.user).toBe("bot");
  });

  it("maps a rejected login to SINK_AUTH, not retryable, without the password", async () => {
    const server = await startSmtpServer({ auth: { user: "bot", pass: "right" } });
    const error = await failure(send(options(server.port, { user: "bot", pass: PASS })));
    expect(error).toMatchObject({ code: "SINK_AUTH", retryable: false, sink: "mail" });
    expect(server.messages).toHaveLength(0);
  });

  it("maps a refused port to SINK_NETWORK, retryable", async () => {
    const error = await failure(send(options(await freePort())));
    expect(error).toMatchObject({ code: "SINK_NETWORK", retryable: true });
  });

  it("gives up on a server that never greets at the deadline (SINK_TIMEOUT)", async () => {
    const server = await startSilentServer();
    const started = Date.now();
    const error = await failure(send(options(server.port), 500));
    expect(error).toMatchObject({ code: "SINK_TIMEOUT", retryable: true });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  const cert = selfSignedCert();
  it.runIf(cert)(
    "upgrades with STARTTLS when offered (self-signed certificate accepted on request)",
    async () => {
      const server = await startSmtpServer({ tls: cert! });
      await send(options(server.port, { requireTLS: true, rejectUnauthorized: false }));
      expect(server.messages[0]?.secure).toBe(true);
    },
  );

  it.runIf(cert)(
    "refuses a self-signed certificate by default (not retryable, with a hint)",
    async () => {
      const server = await startSmtpServer({ tls: cert! });
      const error = await failure(send(options(server.port)));
      expect(error).toMatchObject({ code: "SINK_NETWORK", retryable: false });
      expect(server.messages).toHaveLength(0);
    },
  );

  it("renders the message for --dry-run with the login and password masked", () => {
    const rendered = email.render(
      sampleNotification(),
      options(25, { user: "AKIA-login-canary", pass: PASS }),
      testDeps(),
    );
    expect(JSON.stringify(rendered)).not.toContain(PASS);
    expect(JSON.stringify(rendered)).not.toContain("AKIA-login-canary");
    expect(rendered).toMatchObject({ smtp: { user: "***", pass: "***" } });
    expect(rendered).toMatchObject({
      subject: "[hook-notify] shop-api: Session ended with an error",
      to: base.to,
    });
  });
});

describe("emailMessage", () => {
  it("uses the subject prefix and keeps a title without the project prefix", () => {
    const message = emailMessage(
      sampleNotification({ title: "Agent finished", failure: false, level: "done" }),
      {
        ...options(25),
        subjectPrefix: "[ci]",
      },
    );
    expect(message.subject).toBe("[ci] shop-api: Agent finished");
    expect(message.html).not.toContain("#c62828");
  });

  // Issue 25: a directory or session id with separators or bidi controls is outside text.
  it("shows the event's directory and session id as one inert line each", () => {
    const message = emailMessage(
      sampleNotification({ cwd: "/w/a\u2028b\u202ec", sessionId: "s\u2029\u200b1" }),
      options(25),
    );
    for (const text of [message.text, message.html]) {
      expect(text).not.toMatch(/[\u2028\u2029\u202e\u200b]/);
    }
    expect(message.text).toContain("Directory: /w/a ⏎ b�c");
  });

  it("escapes every markup character", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;",
    );
  });

  it.each([
    [{ ...base, to: [], smtp: { host: "h" } }],
    [{ ...base, from: "nobody", smtp: { host: "h" } }],
    [{ ...base, smtp: { host: "h", port: 70_000 } }],
    [{ ...base, smtp: { host: "h", password: "x" } }],
  ])("rejects invalid options %j", (opts) => {
    expect(email.options.safeParse(opts).success).toBe(false);
  });
});
