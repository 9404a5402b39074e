// Sends watch notifications the way the hook sends its own: route, the noise rules, local sinks
// now, remote ones through the outbox and the background worker, one log line each.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { LoadedConfig } from "../../config/load-config.js";
import { logPath, stateDir } from "../../config/paths.js";
import type { Config } from "../../core/config.js";
import type { Deps } from "../../deps.js";
import type { Notification } from "../../core/notification.js";
import { dispatch } from "../../delivery/dispatch.js";
import { startWorker } from "../../link/spawn.js";
import { SINK_DEFAULT_EVENTS, WATCH_EVENTS } from "../../core/hook-event.js";
import {
  applyPolicy,
  headlessContainerOf,
  remoteSessionOf,
  type PolicyFacts,
} from "../../pipeline/policy.js";
import { appendJournal, startRecord } from "../../journal/append.js";
import type { RunRecord } from "../../journal/line.js";
import { route } from "../../pipeline/route.js";
import { claimMarker } from "../../pipeline/seen-markers.js";

// A sink whose `events` is the default gets the watch events too; one with its own list gets
// those it names.
export function withWatchEvents(config: Config): Config {
  const sinks = Object.fromEntries(
    Object.entries(config.sinks).map(([name, entry]) => {
      const isDefault =
        entry.events.length === SINK_DEFAULT_EVENTS.length &&
        SINK_DEFAULT_EVENTS.every((event) => entry.events.includes(event));
      return [name, isDefault ? { ...entry, events: [...entry.events, ...WATCH_EVENTS] } : entry];
    }),
  );
  return { ...config, sinks };
}

// Delivers one notification and logs it; returns the log record.
export async function announce(
  notification: Notification,
  loaded: LoadedConfig,
  deps: Deps,
  options: { configPath?: string | undefined; key: string },
): Promise<RunRecord> {
  const record = startRecord(deps.now());
  const config = withWatchEvents(loaded.value);
  const planned = route(notification, config);
  const event = {
    name: notification.event,
    sessionId: options.key,
    raw: notification.raw,
    message: notification.body,
  };
  const plan = applyPolicy(planned, event, config, policyFacts(deps));
  Object.assign(record, {
    client: "watch",
    event: notification.event,
    failure: notification.failure,
    project: notification.project,
    session: notification.sessionId,
    id: notification.id,
    skipped: plan.skipped,
    issues: loaded.issues,
  });
  record.outcomes = await dispatch(plan.deliveries, {
    deps,
    budgetMs: 10_000,
    wait: false,
    secrets: loaded.secrets,
    configPath: options.configPath,
    held: [],
    whenQueued: startWorker,
    // A session done waits for its next message: a typed reply can give it (src/reply/).
    replySink: notification.event === "SessionIdle" ? config.replySink : undefined,
  });
  record.ms = deps.now() - Date.parse(record.time);
  appendJournal(logPath(deps), record, loaded.secrets);
  return record;
}

function policyFacts(deps: Deps): PolicyFacts {
  const now = deps.now();
  const dir = join(stateDir(deps), "seen");
  const local = new Date(now);
  return {
    localMinutes: local.getHours() * 60 + local.getMinutes(),
    remoteSession: remoteSessionOf(deps.env),
    headlessContainer: headlessContainerOf(deps.env, deps.platform, existsSync),
    turnMs: undefined,
    claim: (name, windowMs) => claimMarker(dir, name, windowMs, now),
    coalesce: false,
  };
}
