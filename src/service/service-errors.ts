// The service's failures as HookNotifyErrors with SERVICE_* codes, and what they say: a wait
// in words, the key's fragments masked in what the service echoed.
import { HookNotifyError, type ErrorCode } from "../errors.js";

export function tooLarge(where: string): HookNotifyError {
  return serviceError(
    "SERVICE_INVALID_RESPONSE",
    `${where}: the answer is larger than 4 MiB, more than hook-notify reads. Ask for less (a smaller --limit or date range).`,
    { retryable: false },
  );
}

export function timeoutError(target: string, cause: unknown): HookNotifyError {
  return serviceError("SERVICE_TIMEOUT", `no answer from the service (${target}) in time.`, {
    cause,
  });
}

/** The shortest piece of a secret masked on its own in what the service says. */
const FRAGMENT = 8;

// Masks every run of FRAGMENT or more characters that also occurs in one of `secrets`: a server
// that echoes the key minus its last characters must not get the rest printed.
export function maskFragments(text: string, secrets: readonly string[]): string {
  const grams = new Set<string>();
  for (const secret of secrets)
    for (let i = 0; i + FRAGMENT <= secret.length; i++) grams.add(secret.slice(i, i + FRAGMENT));
  if (grams.size === 0) return text;
  const masked = new Array<boolean>(text.length).fill(false);
  for (let j = 0; j + FRAGMENT <= text.length; j++)
    if (grams.has(text.slice(j, j + FRAGMENT))) masked.fill(true, j, j + FRAGMENT);
  let out = "";
  for (let j = 0; j < text.length; j++) {
    if (!masked[j]) out += text.charAt(j);
    else if (j === 0 || !masked[j - 1]) out += "***";
  }
  return out;
}

// 1500 → "2 s", 90_000 → "1 min 30 s"
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${String(seconds)} s`;
  const rest = seconds % 60;
  return `${String(Math.floor(seconds / 60))} min${rest ? ` ${String(rest)} s` : ""}`;
}

export function serviceError(
  code: ErrorCode,
  message: string,
  options: { cause?: unknown; retryable?: boolean; retryAfterMs?: number; status?: number },
): HookNotifyError {
  return new HookNotifyError(code, `service: ${message}`, { sink: "service", ...options });
}
