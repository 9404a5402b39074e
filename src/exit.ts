// The one module that ends the process: eslint.config.js allows process.exit and process.exitCode
// here and nowhere else in src/. The edges (the hook's hand-off and safety net, a command's
// handler, the worker's main) pass a code here; everything below them returns a code or throws a
// HookNotifyError (errors.ts) that the edge turns into one (core/exit-code.ts). Hook mode passes
// only 0 or 1.

/** Ends the process now, dropping pending work: the event handed over, an answer printed, the
 * safety net's deadline, a usage mistake, Ctrl-C. */
export function exitNow(code: number): never {
  process.exit(code);
}

/** A code the hook path (the hook, `approve`) ends with: never 2, which a hook client reads as
 * "block" (on Stop: the agent keeps going). */
export type HookCode = 0 | 1;

/** exitNow for the hook path: the type checker keeps 2 out of it. */
export function endHook(code: HookCode): never {
  exitNow(code);
}

/** The code the process ends with once its work is done (output flushed, children started). */
export function exitWhenDone(code: number): void {
  process.exitCode = code;
}

/** The code set so far, 0 when none: a command whose reader went away ends with it. */
export function codeSoFar(): number {
  return typeof process.exitCode === "number" ? process.exitCode : 0;
}
