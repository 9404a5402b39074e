// The exit codes (core/exit-code.ts) as `hook-notify help exit-codes` prints them, and the quiet
// ends: a reader that went away, Ctrl-C.
import { EXIT } from "../core/exit-code.js";
import { codeSoFar, exitNow } from "../exit.js";

export { EXIT, exitCodeFor } from "../core/exit-code.js";

/** `hook-notify help exit-codes`: one line per code. */
export const EXIT_CODES_HELP = [
  "Exit codes of hook-notify:",
  "  0    ok",
  "  1    something failed (a sink did not deliver, doctor found a blocker, flush left work)",
  "  2    a usage mistake on a command (an unknown flag or value, a missing value or argument,",
  "       --yes missing where nobody can be asked): one line names the fix, nothing was sent",
  "       or written",
  "  130  interrupted (Ctrl-C)",
  'Never 2 in hook mode (a hook client reads 2 as "keep the agent going"): the hook itself',
  "(hook-notify, run, an unknown hook flag), approve and an unknown command word exit 0 or 1.",
  "The service commands (sessions, computers, usage, controls) also exit 3 when the service",
  "refused (docs/service.md).",
  "",
].join("\n");

// A reader that went away (`hook-notify doctor | head -3`) ends the command quietly, and Ctrl-C
// ends it with 130, without a stack or a usage hint.
export function exitQuietly(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      exitNow(codeSoFar());
    });
  }
  process.on("SIGINT", () => exitNow(EXIT.interrupted));
}

/** A prompt's Ctrl-C (readline and the prompt library reject with an AbortError). */
export function isInterrupt(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return error.name === "AbortError" || error.name === "ExitPromptError" || code === "ABORT_ERR";
}
