// The agent's own terminal: a banner sequence the terminal is known to show (OSC 9, 777 or 99),
// the tab title and the bell, written to the tty of the agent's process (never to stdout), with
// the event's text made inert first. Works over SSH: the bytes travel back to your terminal.
import * as z from "../zod.js";
import { ok, fail } from "../check-result.js";
import type { Deps } from "../deps.js";
import { HookNotifyError } from "../errors.js";
import { findProgram } from "./find-program.js";
import { defineSink, type SendContext } from "./sink.js";
import { detectTerminal, terminalWrite, type TerminalKind } from "./terminal-sequence.js";
import { findAgentTty, writeToTty } from "./terminal-tty.js";

function optionsSchema() {
  return z.strictObject({
    bell: z._default(
      z
        .boolean()
        .check(
          z.describe(
            "Ring the terminal's bell (BEL); never for a notice or a usage limit. Default: true.",
          ),
        ),
      true,
    ),
    banner: z._default(
      z
        .boolean()
        .check(
          z.describe(
            "Ask the terminal for a desktop banner, only where it is known to show one: OSC 9 (iTerm2), OSC 777 (WezTerm, Ghostty, foot, VTE), OSC 99 (kitty); inside tmux through its passthrough when allow-passthrough is on. Default: true.",
          ),
        ),
      true,
    ),
    title: z._default(
      z
        .boolean()
        .check(
          z.describe(
            "Set the terminal's tab and window title (OSC 0) to the notification's title. Default: false (the agent sets its own).",
          ),
        ),
      false,
    ),
  });
}

export const terminal = defineSink({
  type: "terminal",
  options: optionsSchema,
  remote: false,
  describeTarget: () => "the agent's terminal",
  check: (entry, ctx) => Promise.resolve(checkTerminal(entry.name, ctx.deps)),
  starters: [
    {
      choice: "terminal",
      chosenOnly: true,
      // Over SSH the bytes reach the terminal you sit at, so the ssh rule must not skip it.
      entry: () => ({ type: "terminal", localSinksOverSsh: true }),
    },
  ],
  explain: () => undefined,
  render(notification, opts, deps) {
    const kind = detectTerminal(deps.env);
    const write = terminalWrite(notification, opts, kind, kind.tmux);
    return {
      terminal: kind.name,
      sends: write.sent,
      ...(kind.tmux && kind.banner ? { tmux: "banner only if allow-passthrough is on" } : {}),
      bytes: write.text,
    };
  },
  async send(notification, opts, ctx) {
    const kind = detectTerminal(ctx.deps.env);
    if (ctx.deps.platform === "win32") throw unavailable(ctx, WINDOWS);
    const tty = await findAgentTty(ctx.deps, ctx.signal);
    if (!tty) throw unavailable(ctx, NO_TTY);
    const passthrough =
      kind.tmux && kind.banner && opts.banner ? await tmuxPassthrough(ctx) : false;
    const write = terminalWrite(notification, opts, kind, passthrough);
    if (write.text === "") return { via: `${kind.name}: nothing to send` };
    await writeToTty(tty, write.text, ctx.sinkName);
    return { via: `${kind.name} ${tty.path}: ${write.sent.join(", ")}` };
  },
});

const WINDOWS =
  "a Windows console has no terminal device another process can write to. Use the desktop sink";
const NO_TTY =
  "the agent runs without a terminal (an IDE, a pipe, a CI job), or it has gone. Use the desktop sink";

function unavailable(ctx: SendContext, why: string): HookNotifyError {
  return new HookNotifyError("SINK_UNAVAILABLE", `${ctx.sinkName}: ${why}.`, {
    sink: ctx.sinkName,
    retryable: false,
  });
}

// tmux's allow-passthrough for the agent's pane ("1"/"on"/"all": it passes a DCS tmux; … on).
async function tmuxPassthrough(ctx: SendContext): Promise<boolean> {
  const tmux = findProgram("tmux", ctx.deps.env, ctx.deps.platform);
  if (!tmux) return false;
  const target = ctx.deps.env.TMUX_PANE ? ["-t", ctx.deps.env.TMUX_PANE] : [];
  const { execFile } = await import("node:child_process");
  const answer = await new Promise<string>((resolve) => {
    execFile(
      tmux,
      ["display-message", "-p", ...target, "#{allow-passthrough}"],
      { env: ctx.deps.env, signal: ctx.signal, timeout: 2000 },
      (error, stdout) => {
        resolve(error ? "" : stdout.trim());
      },
    );
  });
  return ["1", "on", "all"].includes(answer);
}

// doctor: which terminal the agent would be told about, and what it would get.
export function checkTerminal(name: string, deps: Pick<Deps, "env" | "platform">) {
  const check = `terminal (${name})`;
  if (deps.platform === "win32")
    return fail(check, WINDOWS.split(".")[0] ?? WINDOWS, "Use the desktop sink on Windows.", {
      sink: name,
    });
  const kind: TerminalKind = detectTerminal(deps.env);
  const banner = kind.banner
    ? kind.tmux
      ? `${kind.banner} through tmux's passthrough (needs: set -g allow-passthrough on)`
      : kind.banner
    : "no banner (not a terminal known to show one)";
  return ok(check, `${kind.name}: ${banner}; bell${kind.title ? ", title" : ""}`);
}
