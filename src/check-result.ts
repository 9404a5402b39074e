// One doctor finding, as data: the terminal and --json both print this shape. Sinks (their own
// checks), settings and doctor build it, so it sits at the base of the tree.

/** ok: fine; warn: worth a look, notifications still work; fail: something does not work;
 * reachable: a remote sink whose host answers, but that cannot be proved without sending. */
export type CheckStatus = "ok" | "warn" | "fail" | "reachable";

/** One line of `hook-notify doctor`, and one element of its --json array. */
export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
  /** One line saying what to do; empty when there is nothing to do. */
  fix: string;
  /** A fail that stops notifications altogether (doctor exits 1). */
  blocks?: boolean;
  /** The sink a fail makes unusable (doctor exits 1 when no sink is left). */
  sink?: string;
}

// Short constructors, so each check reads as its outcome.
export function ok(check: string, detail: string): CheckResult {
  return { check, status: "ok", detail, fix: "" };
}

export function warn(check: string, detail: string, fix: string): CheckResult {
  return { check, status: "warn", detail, fix };
}

export function fail(
  check: string,
  detail: string,
  fix: string,
  extra: Pick<CheckResult, "blocks" | "sink"> = {},
): CheckResult {
  return { check, status: "fail", detail, fix, ...extra };
}

// A detail or error that already ends with its fix ("… Use a chat or e-mail sink.") leaves it to
// the fix line, so the fix is said once (doctor, test).
export function withoutFix(text: string, fix: string): string {
  const at = fix === "" ? -1 : text.lastIndexOf(fix);
  return at > 0 ? text.slice(0, at).trimEnd() : text;
}
