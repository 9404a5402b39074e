// The exit codes of every command a person types (`hook-notify help exit-codes` prints them). No
// command exits 2: a hook client reads 2 as "block", and a mistyped hook line must never block.
export const EXIT = { ok: 0, failure: 1, usage: 1, interrupted: 130 } as const;

/** `hook-notify help exit-codes`: one line per code. */
export const EXIT_CODES_HELP = [
  "Exit codes of hook-notify:",
  "  0    ok",
  "  1    something failed (a sink did not deliver, doctor found a blocker, flush left work), or a",
  "       usage mistake (an unknown command, flag or value, a missing value, --yes missing where",
  "       nobody can be asked): one line names the fix, and nothing was sent or written",
  "  130  interrupted (Ctrl-C)",
  'Never 2 for these: a hook client reads 2 as "keep the agent going". The service commands',
  "(sessions, computers, usage, controls) keep their own codes: 2 a mistake their checks find, 3",
  "the service refused (docs/service.md).",
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
