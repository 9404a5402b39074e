import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createNetServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { onTestFinished } from "vitest";

/** One message as the server received it, decoded enough for assertions. */
export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | undefined;
  secure: boolean;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpOptions {
  /** Require this user/pass (AUTH offered); otherwise no AUTH at all. */
  auth?: { user: string; pass: string };
  /** Offer STARTTLS with this certificate (see selfSignedCert). */
  tls?: { key: Buffer; cert: Buffer };
  /** Refuse this many logins first, even with the right password (a flaky server). */
  rejectAuthTimes?: number;
  /** Refused logins are answered "535 … for <user>": servers that echo the login exist. */
  echoUser?: boolean;
}

// smtp-server on 127.0.0.1:0 that collects every message it accepts.
export async function startSmtpServer(options: SmtpOptions = {}) {
  const messages: ReceivedMail[] = [];
  let rejectsLeft = options.rejectAuthTimes ?? 0;
  const server = new SMTPServer({
    logger: false,
    disabledCommands: [...(options.tls ? [] : ["STARTTLS"]), ...(options.auth ? [] : ["AUTH"])],
    ...(options.tls ?? {}),
    authOptional: !options.auth,
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => {
      const matches = auth.username === options.auth?.user && auth.password === options.auth?.pass;
      const ok = matches && rejectsLeft-- <= 0;
      const refusal = options.echoUser
        ? `Invalid username or password for ${auth.username}`
        : "Invalid username or password";
      callback(ok ? null : new Error(refusal), ok ? { user: auth.username } : undefined);
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        messages.push({
          ...parseMessage(raw),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          secure: session.secure,
          raw,
        });
        callback();
      });
    },
  });
  // A client that dies mid-session (a worker stopped with SIGKILL) resets its connection;
  // smtp-server emits that as "error", which would otherwise be an uncaught exception.
  server.on("error", () => undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  );
  return { port, messages };
}

// A TCP server that accepts and never sends the SMTP greeting.
export async function startSilentServer(): Promise<{ port: number }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((socket) => sockets.add(socket.on("error", () => undefined)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { port: (server.address() as AddressInfo).port };
}

// node:crypto cannot make X.509 certificates: use openssl when present, else undefined.
export function selfSignedCert(): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), "hn-cert-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore", timeout: 10_000 },
    );
    return { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Just enough MIME: unfolded headers, RFC 2047 subject, quoted-printable/base64 parts.
function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = head.replace(/\r?\n[ \t]+/g, " ");
  const subject = decodeWords(/^subject: (.*)$/im.exec(headers)?.[1] ?? "");
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1];
  const parts = boundary ? rest.join("\n\n").split(`--${boundary}`) : [raw];
  const found = { text: "", html: "" };
  for (const part of parts) {
    const [partHead = "", ...body] = part.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
    const type = /content-type: text\/(plain|html)/i.exec(partHead)?.[1];
    if (!type) continue;
    const encoding = /content-transfer-encoding: (\S+)/i.exec(partHead)?.[1]?.toLowerCase();
    found[type === "plain" ? "text" : "html"] = decodeBody(body.join("\n\n"), encoding);
  }
  return { subject, ...found };
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_m, kind: string, text: string) =>
      kind.toLowerCase() === "b"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === "base64")
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body.replace(/=\r?\n/g, ""));
  return body;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i] ?? "", "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}
