// doctor's check of an HTTP sink (chat, webhook): DNS and a TCP connect to its host or proxy.
import { lookup } from "node:dns/promises";
import { connect } from "node:net";
import type { Deps } from "../deps.js";
import { proxyOptions } from "./post.js";
import { redactUrl } from "../redact.js";
import { fail, ok, type CheckResult } from "../check-result.js";

const CONNECT_TIMEOUT_MS = 3_000;

/** What doctor checks: the sink's name, its kind for the check's name, and the URL it sends to. */
export interface ReachTarget {
  name: string;
  label: string;
  url: string;
  /** How the target is shown, secrets masked (default: the URL's origin). */
  shown?: string | undefined;
}

// DNS and a TCP connect to the endpoint's host (or the proxy's); no HTTP request is sent.
export async function checkReachable(target: ReachTarget, env: Deps["env"]): Promise<CheckResult> {
  const url = new URL(target.url);
  const name = `${target.label} (${target.name})`;
  const proxy = proxyFor(url, env);
  const endpoint = proxy ?? url;
  const host = endpoint.hostname.replace(/^\[|\]$/g, "");
  const port = Number(endpoint.port || (endpoint.protocol === "https:" ? 443 : 80));
  const via = proxy ? ` via proxy ${proxy.host}` : "";
  const shown = `${target.shown ?? redactUrl(url.href)}${via}`;
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
      sink: target.name,
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

// DNS and TCP say nothing of the path or the credentials: only `test` proves such an entry.
export function onlyReachable(reachable: CheckResult, sinkName: string): CheckResult {
  if (reachable.status !== "ok") return reachable;
  return {
    ...reachable,
    status: "reachable",
    detail: `${reachable.detail}; it cannot be proved without sending`,
    fix: `hook-notify test --sink ${sinkName} sends one sample`,
  };
}
