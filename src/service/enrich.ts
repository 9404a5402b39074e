// Enrichment: before the background worker sends a Droid notification, it asks the service for
// the session's title and token usage and renders the notification again with them. Bounded in
// time; on any failure the notification goes out exactly as the hook rendered it.
import { findAdapter } from "../clients/index.js";
import { deadline } from "../abort.js";
import type { Config, ServiceConfig } from "../core/config.js";
import { toHookNotifyError } from "../errors.js";
import { formatNotification } from "../message/format.js";
import type { Notification, TokenUsage } from "../core/notification.js";
import { parseEvent } from "../pipeline/parse-event.js";
import { getSession } from "./client.js";
import { loadTransport } from "./http.js";
import type { Session } from "./schemas.js";

// The session as the service has it, or the reason it could not be had in time.
export async function fetchSessionFacts(
  service: ServiceConfig,
  sessionId: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<{ session?: Session; error?: string }> {
  await loadTransport();
  const timer = deadline(service.enrichTimeoutMs, signal);
  try {
    return { session: await getSession({ service, env, signal: timer.signal }, sessionId) };
  } catch (error) {
    return { error: toHookNotifyError(error).code };
  } finally {
    timer.clear();
  }
}

// True when the notification is one enrichment is for: Droid's, with a session id, not yet done.
export function wantsEnrichment(notification: Notification, config: Config): boolean {
  const service = config.service;
  return (
    service?.enrich === true &&
    findAdapter(notification.client)?.enrichedByService === true &&
    typeof notification.sessionId === "string" &&
    notification.sessionId !== "" &&
    notification.tokenUsage === undefined
  );
}

// The notification rendered again with the session's title and token usage (same id, time,
// templates); a coalesced one keeps its merged text and only gains the fields.
export function applySession(
  notification: Notification,
  session: Session,
  config: Config,
): Notification {
  const title = session.title?.trim() || undefined;
  const settings = session.sessionSettings;
  const usage = (settings?.inclusiveTokenUsage ?? settings?.tokenUsage) as TokenUsage | undefined;
  if (!title && !usage) return notification;
  if (notification.coalesced) {
    return {
      ...notification,
      ...(title ? { sessionTitle: title } : {}),
      ...(usage ? { tokenUsage: usage } : {}),
    };
  }
  const event = parseEvent(JSON.stringify(notification.raw));
  if ("ignored" in event) return notification;
  const sessionTitle = title ?? notification.sessionTitle;
  const rendered = formatNotification(
    event,
    {
      project: notification.project,
      projectDir: notification.cwd ?? "",
      ...(notification.client ? { client: notification.client } : {}),
      ...(sessionTitle ? { sessionTitle } : {}),
      ...(usage ? { tokenUsage: usage } : {}),
      ...(notification.lastMessage ? { lastMessage: notification.lastMessage } : {}),
    },
    {
      templates: config.templates,
      maxBodyLength: config.maxBodyLength,
      id: notification.id,
      now: Date.parse(notification.timestamp),
    },
  );
  return { ...rendered, raw: notification.raw };
}
