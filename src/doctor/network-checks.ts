// Remote sinks: SMTP verify (connect, EHLO, auth; no mail) and chat/webhook host reachability.
import { lookup } from "node:dns/promises";
import { connect } from "node:net";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import { proxyOptions } from "../http/post.js";
import { redactUrl, scrub } from "../redact.js";
import { toEmailError, transportOptions, type EmailOptions } from "../sinks/email.js";
import { fail, ok, type CheckResult } from "./check.js";

const CONNECT_TIMEOUT_MS = 3_000;
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

// DNS and a TCP connect to the webhook's host (or the proxy's); no HTTP request is sent.
export async function checkReachable(entry: SinkEntry, env: Deps["env"]): Promise<CheckResult> {
  const url = new URL((entry.options as { url: string }).url);
  const label = entry.type === "chat" ? (entry.options as { service: string }).service : "webhook";
  const name = `${label} (${entry.name})`;
  const proxy = proxyFor(url, env);
  const target = proxy ?? url;
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  const via = proxy ? ` via proxy ${proxy.host}` : "";
  const shown = `${redactUrl(url.href)}${via}`;
  const fix = proxy
    ? "Check HTTPS_PROXY / NO_PROXY and the network."
    : "Check the url's host name and the network (a firewall or a proxy: set HTTPS_PROXY).";
  try {
    const { address } = await lookup(host);
    await tcpConnect(address, port);
    return ok(name, `${shown}: ${host} resolves and accepts connections on port ${port}`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return fail(name, `${shown}: ${host}:${port} not reachable (${code})`, fix, {
      sink: entry.name,
    });
  }
}

// The proxy undici would use for this URL, honouring NO_PROXY (host, .suffix or *).
function proxyFor(url: URL, env: Deps["env"]): URL | undefined {
  const options = proxyOptions(env);
  const proxy = url.protocol === "https:" ? options.httpsProxy : options.httpProxy;
  if (!proxy) return undefined;
  const bypass = options.noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((rule) => {
      const bare = rule.replace(/^\*?\./, "").replace(/:\d+$/, "");
      return rule === "*" || url.hostname === bare || url.hostname.endsWith(`.${bare}`);
    });
  if (bypass) return undefined;
  try {
    return new URL(proxy.includes("://") ? proxy : `http://${proxy}`);
  } catch {
    return undefined;
  }
}

function tcpConnect(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: CONNECT_TIMEOUT_MS });
    socket.once("connect", () => {
      socket.destroy();
      resolve();
    });
    socket.once("timeout", () => {
      socket.destroy();
      reject(Object.assign(new Error("timed out after 3 s"), { code: "ETIMEDOUT" }));
    });
    socket.once("error", (error) => {
      socket.destroy();
      reject(error);
    });
  });
}
