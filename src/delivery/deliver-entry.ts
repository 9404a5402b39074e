// One attempt at one outbox entry: re-read the config, find the sink, send (delivery/send.ts).
import { findAdapter } from "../clients/index.js";
import { loadConfig } from "../config/load-config.js";
import type { Deps } from "../deps.js";
import type { Notification } from "../core/notification.js";
import { HookNotifyError } from "../errors.js";
import { findSink } from "../sinks/index.js";
import type { OutboxEntry } from "../outbox/store.js";
import { send } from "./send.js";
import type { ReceiptWindow } from "../core/receipt.js";
import { sameAgent } from "../process-start.js";

type LoadedConfig = Awaited<ReturnType<typeof loadConfig>>;

/** Configs loaded during one drain, by config path and cwd (entries of one hook share them). */
export type ConfigCache = Map<string, LoadedConfig>;

/** The service's session facts for a notification (worker/enrich-entry.ts), given by the caller:
 * the service code loads only in the processes that drain, and only when asked. */
export type Enrich = (
  notification: Notification,
  config: LoadedConfig["value"],
  deps: Deps,
  signal: AbortSignal,
  secrets: string[],
) => Promise<Notification>;

// Sends the entry once, resolving with the service's message id when it gave one (for the log)
// and, for a message the person can acknowledge, the window to ask about its receipt in.
// Throws HookNotifyError; `secrets` are returned for scrubbing log lines.
export async function deliverEntry(
  entry: OutboxEntry,
  deps: Deps,
  ctx: { cache: ConfigCache; signal: AbortSignal; secrets: string[]; enrich?: Enrich | undefined },
): Promise<{ messageId?: string; watch?: ReceiptWindow }> {
  const { config, sink, sinkEntry, options } = entrySink(entry, deps, ctx);
  const notification = await enriched(entry, config.value, deps, ctx);
  const report = await send({
    sink,
    options,
    notification,
    sinkName: entry.sinkName,
    timeoutMs: sinkEntry.timeoutMs,
    deps: inHookSession(entry, deps),
    wait: true,
    signal: ctx.signal,
    secrets: ctx.secrets,
    of: entry.notification.followUp?.of,
  });
  if (report?.messageId === undefined) return {};
  const watch = report.watch && sink.poll ? { watch: report.watch } : {};
  return { messageId: report.messageId, ...watch };
}

// The entry's sink as the config says it now, with its validated options. Throws HookNotifyError
// (waiting for a ${VAR}, gone from the config, invalid options); `secrets` gets the config's.
export function entrySink(
  entry: OutboxEntry,
  deps: Deps,
  ctx: { cache: ConfigCache; secrets: string[] },
) {
  const config = configOf(entry, deps, ctx.cache);
  ctx.secrets.push(...config.secrets);
  if (config.error) {
    const message = `${entry.sinkName}: ${config.error.message} The notification stays in the outbox.`;
    throw new HookNotifyError(config.error.code, message, {
      sink: entry.sinkName,
      retryable: true,
    });
  }
  const sinkEntry = config.value.sinks[entry.sinkName];
  const needs = config.unresolved[entry.sinkName];
  // Not resolvable in this process's environment, but it may be in the next worker's: wait.
  if (!sinkEntry && needs) {
    const names = needs.map((name) => `\${${name}}`).join(", ");
    const message = `${entry.sinkName}: waiting, ${names} is not set in this process's environment; the notification stays in the outbox until a worker or flush that has it runs.`;
    throw new HookNotifyError("CONFIG_ENV_MISSING", message, {
      sink: entry.sinkName,
      retryable: true,
    });
  }
  const sink = sinkEntry ? findSink(sinkEntry.type) : undefined;
  if (!sinkEntry || !sink) {
    const message = `${entry.sinkName}: this sink is no longer in the config (or is invalid there), so the notification was dropped.`;
    throw new HookNotifyError("CONFIG_INVALID", message, {
      sink: entry.sinkName,
      retryable: false,
    });
  }
  const parsed = sink.options.safeParse(sinkEntry.options);
  if (!parsed.success) {
    const message = `${entry.sinkName}: its options are invalid now; see why with: echo '{"hook_event_name":"Stop"}' | hook-notify --dry-run`;
    throw new HookNotifyError("CONFIG_INVALID", message, {
      sink: entry.sinkName,
      retryable: false,
    });
  }
  return { config, sink, sinkEntry, options: parsed.data };
}

// An entry that kept the hook's session (an away sink's, a follow-up's: display, tmux and bus
// variables, the agent's pid) is sent in it, so that a banner from the outbox shows on that
// session's bus and its click brings back that session's place.
// Without it (a fallback's, a digest's) the worker's own variables may be another session's: its
// banner is shown but not followed, so no click can bring back a wrong place.
// The agent's pid is kept only while it still runs the same process (its start time).
function inHookSession(entry: OutboxEntry, deps: Deps): Deps {
  // Over the worker's deps, not a copy: copying would run their getters (stdin among them).
  const session = Object.create(deps) as Deps;
  const gate = entry.presence;
  if (!gate) {
    session.worker = false;
    // No agent recorded: the worker's own parent is not one (its pid may be anyone's by now).
    session.ppid = undefined;
    return session;
  }
  session.env = { ...deps.env, ...gate.env };
  // Its terminal only while the recorded pid still runs the process recorded with it: a pid
  // reused since (hours later, for a follow-up) may hold another terminal. Else the sink finds
  // no terminal, and its fallback (the banner) takes the notification.
  session.ppid = sameAgent(gate.pids[0], gate.started, deps.platform);
  return session;
}

// The config the entry's hook used, loaded once per drain. Throws (retryable) when unreadable.
export function configOf(entry: OutboxEntry, deps: Deps, cache: ConfigCache): LoadedConfig {
  const key = `${entry.configPath ?? ""}\0${entry.projectDir ?? ""}`;
  let config = cache.get(key);
  if (!config) {
    try {
      config = loadConfig(deps, { configPath: entry.configPath, projectDir: entry.projectDir });
    } catch (error) {
      throw new HookNotifyError(
        "CONFIG_UNREADABLE",
        `${entry.sinkName}: the config could not be read; will retry.`,
        { sink: entry.sinkName, retryable: true, cause: error },
      );
    }
    cache.set(key, config);
  }
  return config;
}

// With `service` configured, a Droid notification first gets the session's title from the
// service (bounded; unchanged on any failure), through the caller's `enrich`.
async function enriched(
  entry: OutboxEntry,
  config: LoadedConfig["value"],
  deps: Deps,
  ctx: { signal: AbortSignal; secrets: string[]; enrich?: Enrich | undefined },
): Promise<OutboxEntry["notification"]> {
  const { notification } = entry;
  const client = findAdapter(notification.client);
  const wanted = config.service?.enrich && client?.enrichedByService === true;
  if (!wanted || !notification.sessionId || !ctx.enrich) return notification;
  return ctx.enrich(notification, config, deps, ctx.signal, ctx.secrets);
}
