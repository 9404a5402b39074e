// The likely fix for a failed test delivery, from its error's data: code and HTTP status. Pure.
import { findSink } from "../sinks/index.js";
import type { SinkFailure } from "../sinks/sink.js";

/** What likelyFix needs to know about one failed delivery: its sink's type and the error's data. */
export interface FailedDelivery extends SinkFailure {
  type: string;
  /** The error message, already scrubbed of secrets. */
  error?: string | undefined;
}

// One sentence a person can act on, from the error's code and status: rewording never changes it.
// The sink's own explanation comes first (its module knows its service); then the code's advice.
export function likelyFix(failed: FailedDelivery): string {
  return findSink(failed.type)?.explain(failed) ?? fixForCode(failed);
}

function fixForCode(failed: FailedDelivery): string {
  switch (failed.code) {
    case "SINK_HTTP_STATUS":
      return fixForStatus(failed.status);
    case "SINK_UNAVAILABLE":
      return ownFix(failed.error) ?? "install the program it needs, or use another sink here";
    case "SINK_NETWORK":
      return "could not connect: check the host name in the URL, the network, and the proxy (HTTPS_PROXY, NO_PROXY)";
    case "SINK_TIMEOUT":
      return "the server is slow or unreachable: check that it is up, or raise timeoutSeconds for this sink";
    case "SINK_AUTH":
      return "the credentials were refused: check the token or password in the config";
    case "CONFIG_INVALID":
    case "CONFIG_UNREADABLE":
      return "fix this sink's entry in the config file";
    case "CONFIG_ENV_MISSING":
      return "export the environment variable its ${VAR} names where the agent runs";
    case "SINK_FAILED":
    case "INPUT_EMPTY":
    case "INPUT_TIMEOUT":
    case "INPUT_TOO_LARGE":
    case "INPUT_INVALID":
    case "OUTBOX_CORRUPT":
    case "SETTINGS_UNREADABLE":
    case "SETTINGS_INVALID":
    case "SETTINGS_CONFLICT":
    case "SETTINGS_WRITE":
    case "USAGE":
    case "SERVICE_UNAUTHORIZED":
    case "SERVICE_FORBIDDEN":
    case "SERVICE_BAD_REQUEST":
    case "SERVICE_NOT_FOUND":
    case "SERVICE_RATE_LIMITED":
    case "SERVICE_HTTP_STATUS":
    case "SERVICE_NETWORK":
    case "SERVICE_TIMEOUT":
    case "SERVICE_INVALID_RESPONSE":
      return ownFix(failed.error) ?? "check this sink's options in the config file";
    case "LAUNCHER_NO_NODE":
    case "LAUNCHER_NO_PACKAGE":
      return "the hook's launcher found no node or no hook-notify: install them, then run hook-notify install";
    case "HOOK_DEADLINE":
      return "the run ran out of time: give the hook entry a longer timeout (hook-notify install --timeout)";
    case "INTERNAL":
    case undefined:
      return "an unexpected error: please report it with the output of hook-notify --version";
  }
}

function fixForStatus(status: number | undefined): string {
  if (status === 404 || status === 410)
    return "the URL does not exist on that server: check the url in the config";
  if (status === 401 || status === 403)
    return "the server refused the credentials: check the token, secret or headers in the config";
  if (status === 429) return "rate limited: wait a minute and try again";
  if (status !== undefined && status >= 500)
    return "the service has trouble right now: try again later";
  if (status !== undefined && status >= 300 && status < 400)
    return "the URL redirects: put the final URL in the config";
  return "the service rejected the request: check this sink's options";
}

// Sink messages end with their own next step: "desktop: … (…). Install it (…)." or "desktop: no
// notification daemon on the D-Bus session bus (…): start the desktop's notification service".
function ownFix(message: string | undefined): string | undefined {
  if (!message) return undefined;
  const text = message.replace(/^[^\s:]+: /, "");
  const split = /^(.*?[.)])\s+([A-Z].*)$/s.exec(text);
  // The D-Bus client's messages end "what (detail): the fix" or "what: detail; the fix".
  const tail = split ? undefined : /(?:\): |; )([a-z][^;]*)$/.exec(text)?.[1];
  return (split?.[2] ?? tail ?? text).trim() || undefined;
}
