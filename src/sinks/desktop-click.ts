// Linux, in the background worker only: the banner carries a default action ("Focus"), and
// notify-send stays to learn whether it was clicked (--action implies --wait). The worker reads
// its output without waiting for it: the send resolves once the daemon gave the banner its id
// and notify-send is seen still waiting; the click (or the banner's close, or the bound) comes
// later, and brings back the agent's place (focus/focus-linux.ts). The hook never starts this.
import type { ChildProcess } from "node:child_process";
import { HookNotifyError } from "../errors.js";
import { focusClicked } from "../focus/focus-linux.js";
import type { FocusPlace } from "../focus/place.js";
import { findProgram } from "./find-program.js";
import type { BannerEnd, SendContext, SendReport } from "./sink.js";

export interface ClickOptions {
  place: FocusPlace;
  /** What a click brings back, for the log. */
  what: string;
  /** How long the click is waited for at most; then notify-send is stopped. */
  seconds: number;
  /** How long to watch notify-send after the id for a quick exit (no actions at the daemon). */
  settleMs: number;
}

const NO_ACTIONS = /Actions are not supported/;

/** Banners listened for at once by this worker; a newer one stops the oldest listener (that
 * banner stays, without its action), so a storm of events cannot pile up waiting processes. */
export const MAX_LISTENING = 16;
const listening: ChildProcess[] = [];

// Starts notify-send under `timeout` (the wait is bounded even if the worker goes away) and
// `stdbuf -oL` (notify-send's stdout is a pipe, which stdio buffers until the exit; line-buffered,
// the id arrives once the daemon gave it), where coreutils has them, and resolves with the
// banner's id and what its click does.
export async function notifySendWithAction(
  path: string,
  args: readonly string[],
  ctx: SendContext,
  options: ClickOptions,
): Promise<SendReport> {
  const { spawn } = await import("node:child_process");
  const env = ctx.deps.env;
  const find = (name: string) => findProgram(name, env, ctx.deps.platform);
  const limiter = find("timeout");
  const stdbuf = find("stdbuf");
  const seconds = String(Math.max(1, Math.round(options.seconds)));
  const argv = [...(stdbuf ? [stdbuf, "-oL"] : []), path, ...args];
  if (limiter) argv.unshift(limiter, "--kill-after=5", seconds);
  const [file = path, ...rest] = argv;
  const child = spawn(file, rest, { env, stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
  const bound = setTimeout(() => child.kill("SIGTERM"), options.seconds * 1000 + 10_000);
  bound.unref();
  listening.push(child);
  if (listening.length > MAX_LISTENING) listening.shift()?.kill("SIGTERM");
  const watch = watchBanner(child, options, env);
  void watch.ended.finally(() => {
    clearTimeout(bound);
    const at = listening.indexOf(child);
    if (at >= 0) listening.splice(at, 1);
  });
  const settleMs = Math.max(0, options.settleMs);
  return new Promise<SendReport>((resolve, reject) => {
    let settle: NodeJS.Timeout | undefined;
    const stopSettling = (): void => {
      clearTimeout(settle);
      ctx.signal.removeEventListener("abort", waiting);
    };
    // Still waiting for the click after the settle time: the banner is up, with its action.
    function waiting(): void {
      stopSettling();
      resolve({ messageId: watch.id(), action: `click: ${options.what}`, closed: watch.ended });
    }
    ctx.signal.addEventListener("abort", waiting, { once: true });
    if (stdbuf)
      watch.onId(() => {
        settle = setTimeout(waiting, settleMs);
      });
    else settle = setTimeout(waiting, settleMs);
    void watch.ended.then((end) => {
      stopSettling();
      if (end.ended === "no-actions")
        resolve({ messageId: end.id, action: `none: ${end.why ?? "no actions"}` });
      else if (end.ended === "failed" && end.id === undefined)
        reject(
          new HookNotifyError(
            "SINK_FAILED",
            `${ctx.sinkName}: ${end.why ?? "notify-send failed"}.`,
            { sink: ctx.sinkName, retryable: false },
          ),
        );
      else resolve({ messageId: end.id, action: `click: ${options.what}`, closed: watch.ended });
    });
  });
}

interface BannerWatch {
  id(): string | undefined;
  onId(listener: () => void): void;
  ended: Promise<BannerEnd>;
}

// Reads notify-send's output: the id (--print-id), then the name of the invoked action. The
// click on "default" focuses the place; nothing read here is ever run.
function watchBanner(
  child: ChildProcess,
  options: ClickOptions,
  env: Readonly<Record<string, string | undefined>>,
): BannerWatch {
  let id: string | undefined;
  let action: string | undefined;
  let focusing: Promise<string[]> | undefined;
  let stderr = "";
  let pending = "";
  const idListeners: (() => void)[] = [];
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 2000) stderr += chunk;
  });
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf("\n");
    while (newline >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      newline = pending.indexOf("\n");
      if (id === undefined && /^\d{1,10}$/.test(line)) {
        id = line;
        for (const listener of idListeners) listener();
      } else if (line && action === undefined && /^[\w-]{1,40}$/.test(line)) {
        action = line;
        if (line === "default") focusing = focusClicked(options.place, env);
      }
    }
  });
  const ended = new Promise<BannerEnd>((resolve) => {
    child.once("error", (error: NodeJS.ErrnoException) => {
      resolve({
        ended: "failed",
        why: `could not start notify-send (${error.code ?? error.message})`,
      });
    });
    child.once("close", (code, signal) => {
      void (async () => {
        const focused = focusing ? await focusing : undefined;
        const base = {
          ...(id ? { id } : {}),
          ...(action ? { action } : {}),
          ...(focused ? { focused } : {}),
        };
        if (code === 0) resolve({ ...base, ended: "closed" });
        else if (NO_ACTIONS.test(stderr))
          resolve({
            ...base,
            ended: "no-actions",
            why: "the notification daemon does not support actions",
          });
        else if (code === 124 || code === 137 || signal === "SIGTERM")
          resolve({ ...base, ended: "bound", why: `no click within ${String(options.seconds)} s` });
        else {
          const line = stderr.trim().split("\n")[0]?.slice(0, 200);
          const how = code === null ? `killed by ${signal ?? "a signal"}` : `exit ${String(code)}`;
          resolve({
            ...base,
            ended: "failed",
            why: `notify-send ${how}${line ? `: ${line}` : ""}`,
          });
        }
      })();
    });
  });
  return {
    id: () => id,
    onId: (listener) => {
      if (id !== undefined) listener();
      else idListeners.push(listener);
    },
    ended,
  };
}
