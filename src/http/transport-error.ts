// Turns what undici throws into a HookNotifyError with a stable code and no URL path in it.
import { HookNotifyError } from "../errors.js";

const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
]);
const CONFIG_CODES = new Set(["UND_ERR_INVALID_ARG", "ERR_INVALID_URL", "ERR_INVALID_CHAR"]);

// SINK_TIMEOUT when the deadline struck (or a socket timed out), SINK_NETWORK otherwise.
export function toTransportError(
  error: unknown,
  sinkName: string,
  target: string,
  deadlinePassed: boolean,
): HookNotifyError {
  const code = errorCode(error);
  if (deadlinePassed || TIMEOUT_CODES.has(code)) {
    return new HookNotifyError(
      "SINK_TIMEOUT",
      `${sinkName}: no answer from ${target} before the deadline. It will be retried; check the network or proxy (HTTPS_PROXY, NO_PROXY).`,
      { sink: sinkName, cause: error },
    );
  }
  if (CONFIG_CODES.has(code)) {
    return new HookNotifyError(
      "SINK_FAILED",
      `${sinkName}: the request to ${target} is invalid (${code}). Check the URL and headers in the config.`,
      { sink: sinkName, cause: error, retryable: false },
    );
  }
  const what = code ? ` (${code})` : "";
  return new HookNotifyError(
    "SINK_NETWORK",
    `${sinkName}: could not reach ${target}${what}. It will be retried; check the host name, network or proxy.`,
    { sink: sinkName, cause: error },
  );
}

// undici puts system codes on the error itself or on its cause (fetch wraps them).
function errorCode(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return "";
}
