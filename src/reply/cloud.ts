// A reply to a cloud session's "session done" message (hook-notify watch, SessionIdle) goes to
// that session as its next user message, through the service client `sessions send` uses
// (POST /api/v0/sessions/{id}/messages). The session stands in for the pane: before sending, it
// must still exist and have the message count it had when the notice went out (nobody answered
// it meanwhile, from the app or another reply); otherwise the reply is refused and the phone told.
import type { ServiceConfig } from "../core/config.js";
import { getSession } from "../service/client.js";
import type { ServiceContext } from "../service/http.js";
import { sendMessage } from "../service/session-api.js";

/** The cloud session a reply goes to, as the notice saw it. */
export interface ReplySession {
  id: string;
  /** Its message count when the notice went out; undefined when the service gave none. */
  messageCount?: number | undefined;
}

/** What a cloud reply needs: the config's service, the environment, a deadline. */
export interface CloudReach {
  service: Pick<ServiceConfig, "baseUrl" | "apiKey"> | undefined;
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
}

function contextOf(reach: CloudReach): ServiceContext | undefined {
  return reach.service
    ? { service: reach.service, env: reach.env, signal: reach.signal }
    : undefined;
}

// Why sending to the session is refused now, or undefined when it is still the one that waited.
export async function sessionRefusal(
  target: ReplySession,
  reach: CloudReach,
): Promise<string | undefined> {
  const ctx = contextOf(reach);
  if (!ctx) return "the config has no service to reach the cloud session with";
  let count: number | undefined;
  try {
    count = (await getSession(ctx, target.id)).messageCount;
  } catch (error) {
    return `the cloud session could not be read (${(error as Error).message.split("\n")[0]?.slice(0, 160) ?? ""})`;
  }
  if (target.messageCount !== undefined && count !== target.messageCount) {
    return "the cloud session has new messages since (it was answered, or it moved on)";
  }
  return undefined;
}

// Sends the text as the session's next user message.
export async function sendToSession(
  target: ReplySession,
  text: string,
  reach: CloudReach,
): Promise<void> {
  const ctx = contextOf(reach);
  if (!ctx) throw new Error("no service configured");
  await sendMessage(ctx, target.id, { text });
}
