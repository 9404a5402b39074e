// The exit codes of every command a person types (`hook-notify help exit-codes` prints them). The
// hook itself exits 0 or 1 only: 2 would keep an agent from stopping (run.ts).
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** `hook-notify help exit-codes`: one line per code. */
export const EXIT_CODES_HELP = [
  "Exit codes of hook-notify:",
  "  0    ok",
  "  1    something failed (a sink did not deliver, doctor found a blocker, flush left work)",
  "  2    usage: an unknown command, flag or value, or --yes missing where nobody can be asked",
  "  130  interrupted (Ctrl-C)",
  "In hook mode (what an agent client runs) only 0 and 1: 2 would keep the agent from stopping.",
  "",
].join("\n");

// A reader that went away (`hook-notify doctor | head -3`) ends the command quietly, and Ctrl-C
// ends it with 130, without a stack or a usage hint.
export function exitQuietly(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
      process.exit(typeof process.exitCode === "number" ? process.exitCode : EXIT.ok);
    });
  }
  process.on("SIGINT", () => process.exit(EXIT.interrupted));
}

/** A prompt's Ctrl-C (readline and the prompt library reject with an AbortError). */
export function isInterrupt(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as NodeJS.ErrnoException).code;
  return error.name === "AbortError" || error.name === "ExitPromptError" || code === "ABORT_ERR";
}
