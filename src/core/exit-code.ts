// The exit codes of every command a person types (`hook-notify help exit-codes` prints them). A
// usage mistake on a named command exits 2. Hook mode never does (a hook client reads 2 as
// "block"): the hook path (cli.ts, run.ts), `approve` (a permission hook) and an unknown command
// word (it may be a hand-written hook line) exit 0 or 1 only.
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** The exit code for an error a named command reports: 2 a usage mistake, else 1. */
export function exitCodeFor(error: { code: string }): number {
  return error.code === "USAGE" ? EXIT.usage : EXIT.failure;
}
