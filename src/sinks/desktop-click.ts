// Linux, in the background worker only: the banner carries a default action ("Focus"). notify-send
// with --action stays until the banner ends, but what becomes of the banner is learnt by the bus's
// one listener (banner-listener.ts), so notify-send is asked only for the banner's id: it runs
// under `stdbuf -oL` (its stdout is a pipe, which stdio buffers until the exit; line-buffered,
// the id arrives once the daemon gave it), is watched `settleMs` more for a quick exit (a daemon
// without actions shows the banner plainly and notify-send exits 1), and is then stopped with
// SIGTERM, which leaves the banner and its action on screen (SIGINT would close it). The daemon's
// ActionInvoked still reaches the listener: a monitor sees signals sent to a sender that is gone.
import { HookNotifyError } from "../errors.js";
import { bannerId } from "./notify-send-text.js";
import type { SendContext } from "./sink.js";

/** What notify-send told about the banner it showed with an action. */
export interface ShownBanner {
  /** The daemon's id for the banner. */
  id: string;
  /** Set when the banner went without its action, and why. */
  noAction?: string | undefined;
}

const NO_ACTIONS = /Actions are not supported/;

// Shows the banner with its action and resolves with its id once notify-send is seen waiting
// (then stopped) or exited. Rejects with notify-send's complaint when it printed no id.
export async function showWithAction(
  argv: readonly [string, ...string[]],
  ctx: SendContext,
  settleMs: number,
): Promise<ShownBanner> {
  const { spawn } = await import("node:child_process");
  const [file, ...args] = argv;
  const child = spawn(file, args, {
    env: ctx.deps.env,
    stdio: ["ignore", "pipe", "pipe"],
    shell: false,
    windowsHide: true,
  });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 2000) stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    let settle: NodeJS.Timeout | undefined;
    const stop = (): void => {
      clearTimeout(settle);
      ctx.signal.removeEventListener("abort", onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    };
    const fail = (why: string): void => {
      stop();
      reject(
        new HookNotifyError("SINK_FAILED", `${ctx.sinkName}: ${why}.`, {
          sink: ctx.sinkName,
          retryable: false,
        }),
      );
    };
    const onAbort = (): void => {
      const id = bannerId(stdout);
      if (id === undefined) fail("notify-send gave no id in time and was stopped");
      else {
        stop();
        resolve({ id });
      }
    };
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < 2000) stdout += chunk;
      const id = bannerId(stdout);
      if (id !== undefined && settle === undefined)
        settle = setTimeout(() => {
          stop();
          resolve({ id });
        }, settleMs);
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      fail(`could not start notify-send (${error.code ?? error.message})`);
    });
    child.once("close", (code, signal) => {
      const id = bannerId(stdout);
      const line = stderr.trim().split("\n")[0]?.slice(0, 200);
      if (id !== undefined && (code === 0 || NO_ACTIONS.test(stderr))) {
        stop();
        resolve({
          id,
          ...(NO_ACTIONS.test(stderr)
            ? { noAction: "the notification daemon does not support actions" }
            : {}),
        });
      } else if (id === undefined || code !== null) {
        const how = code === null ? `killed by ${signal ?? "a signal"}` : `exit ${String(code)}`;
        fail(`notify-send ${how}${line ? `: ${line}` : ""}`);
      }
    });
  });
}
