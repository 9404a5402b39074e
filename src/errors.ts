// The one error type of hook-notify. Tests assert on `code`, never on message text.
export type ErrorCode =
  | "INPUT_EMPTY"
  | "INPUT_TIMEOUT"
  | "INPUT_TOO_LARGE"
  | "INPUT_INVALID"
  | "CONFIG_UNREADABLE"
  | "CONFIG_INVALID"
  | "CONFIG_ENV_MISSING"
  | "SINK_UNAVAILABLE"
  | "SINK_FAILED"
  | "SINK_HTTP_STATUS"
  | "SINK_NETWORK"
  | "SINK_TIMEOUT"
  | "SINK_AUTH"
  | "SERVICE_UNAUTHORIZED"
  | "SERVICE_FORBIDDEN"
  | "SERVICE_BAD_REQUEST"
  | "SERVICE_NOT_FOUND"
  | "SERVICE_RATE_LIMITED"
  | "SERVICE_HTTP_STATUS"
  | "SERVICE_NETWORK"
  | "SERVICE_TIMEOUT"
  | "SERVICE_INVALID_RESPONSE"
  | "OUTBOX_CORRUPT"
  | "SETTINGS_UNREADABLE"
  | "SETTINGS_INVALID"
  | "SETTINGS_CONFLICT"
  | "SETTINGS_WRITE"
  | "USAGE"
  | "HOOK_DEADLINE"
  // Logged by the user-scope launcher (hooks-templates/launcher.sh), never thrown by node.
  | "LAUNCHER_NO_NODE"
  | "LAUNCHER_NO_PACKAGE"
  | "INTERNAL";

export interface HookNotifyErrorOptions {
  cause?: unknown;
  /** Name of the sink (config key) the error belongs to. */
  sink?: string;
  /** False when trying again can never succeed (a 404 webhook, bad credentials). */
  retryable?: boolean;
  /** Server-requested wait before the next attempt (429 Retry-After), in ms. */
  retryAfterMs?: number;
  /** The HTTP status a server answered with, for advice that must not parse the message. */
  status?: number;
  /** Who answered, as messages name it: "Slack", "the webhook", "ntfy". */
  service?: string;
  /** The D-Bus error name a bus or daemon answered ("org.freedesktop.DBus.Error.ServiceUnknown"). */
  dbusError?: string;
}

// Carries a stable code, the sink it concerns, whether a retry can help, and the HTTP status.
export class HookNotifyError extends Error {
  readonly code: ErrorCode;
  readonly sink: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  readonly service: string | undefined;
  readonly dbusError: string | undefined;

  constructor(code: ErrorCode, message: string, options: HookNotifyErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HookNotifyError";
    this.code = code;
    this.sink = options.sink;
    this.retryable = options.retryable ?? isRetryableByDefault(code);
    this.retryAfterMs = options.retryAfterMs;
    this.status = options.status;
    this.service = options.service;
    this.dbusError = options.dbusError;
  }
}

// Network trouble and timeouts may pass; configuration and input mistakes will not.
function isRetryableByDefault(code: ErrorCode): boolean {
  return [
    "SINK_NETWORK",
    "SINK_TIMEOUT",
    "SINK_FAILED",
    "CONFIG_ENV_MISSING",
    "SERVICE_RATE_LIMITED",
    "SERVICE_HTTP_STATUS",
    "SERVICE_NETWORK",
    "SERVICE_TIMEOUT",
  ].includes(code);
}

// Turns anything thrown into a HookNotifyError, keeping the original as `cause`.
export function toHookNotifyError(error: unknown): HookNotifyError {
  if (error instanceof HookNotifyError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HookNotifyError("INTERNAL", `Unexpected error: ${message}`, { cause: error });
}
