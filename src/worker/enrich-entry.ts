// The worker's side of enrichment: one service lookup per notification (all its sinks share it),
// journaled, and never longer than service.enrichTimeoutSeconds.
import type { Config } from "../core/config.js";
import type { Deps } from "../deps.js";
import type { Notification } from "../core/notification.js";
import { journal } from "../journal/append.js";
import { applySession, fetchSessionFacts, wantsEnrichment } from "../service/enrich.js";

const MAX_CACHED = 200;
const cache = new Map<string, Promise<Notification>>();

// The notification with the session's title and usage, or unchanged (and why, in the log).
export function enrichForDelivery(
  notification: Notification,
  config: Config,
  deps: Deps,
  signal: AbortSignal,
  secrets: readonly string[],
): Promise<Notification> {
  if (!wantsEnrichment(notification, config) || !config.service) {
    return Promise.resolve(notification);
  }
  const service = config.service;
  let pending = cache.get(notification.id);
  if (!pending) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? "");
    pending = (async () => {
      const sessionId = notification.sessionId ?? "";
      const facts = await fetchSessionFacts(service, sessionId, deps.env, signal);
      const line = { outbox: "worker" as const, id: notification.id, enrich: true };
      if (!facts.session) {
        journal(
          deps,
          {
            ...line,
            code: facts.error ?? "SERVICE_INVALID_RESPONSE",
            message: "sent without the session's title",
          },
          secrets,
        );
        return notification;
      }
      try {
        return applySession(notification, facts.session, config);
      } catch {
        return notification;
      }
    })();
    cache.set(notification.id, pending);
  }
  return pending;
}
