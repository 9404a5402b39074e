// One poll of `hook-notify watch`: read what was seen, ask the service what is now, announce the
// differences, save. Each part (sessions, computers, controls, digest) stands alone: one failing
// (a 403 on analytics, a 500) keeps its old state and does not stop the others.
import { deadline } from "../../abort.js";
import type { LoadedConfig } from "../../config/load-config.js";
import type { ServiceConfig, UsageAlerts } from "../../core/config.js";
import type { Deps } from "../../deps.js";
import { toHookNotifyError, type HookNotifyError } from "../../errors.js";
import { newNotificationId } from "../../message/notification-id.js";
import type { Notification } from "../../core/notification.js";
import { acquireLock } from "../../outbox/lock.js";
import { processOwner } from "../../outbox/spawn.js";
import { listComputers, listControlHistory, type ServiceContext } from "../client.js";
import { listComputersOf } from "../computer-api.js";
import type { ControlChange } from "../schemas.js";
import { announce } from "./announce.js";
import { detectComputers, detectControls } from "./detect.js";
import { fetchDigest, yesterdayUtc } from "./digest.js";
import { noticeOf, type WatchFact } from "./notices.js";
import { fetchUsageAlert } from "./alerts.js";
import { lastMessageTexts } from "./describe-turn.js";
import { scanSessions } from "./sessions.js";
import { readWatchState, watchDir, writeWatchState, type WatchState } from "./state.js";

export interface PollOptions {
  digest: boolean;
  /** Only sessions on these computers (the list's computerId filter); empty: all. */
  computerIds?: readonly string[] | undefined;
  /** Only sessions on the computers of this host (GET /computers?hostId=, each poll). */
  hostId?: string | undefined;
  configPath?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface PollResult {
  announced: Notification[];
  errors: HookNotifyError[];
  /** Things a person should know that are not failures (a session list longer than a poll reads). */
  warnings: string[];
  /** Set when another watch holds the lock: this poll did nothing. */
  busy?: boolean;
}

const PART_MS = 30_000;

// Polls once under the watch lock; never throws for a service error (they are in `errors`).
export async function pollOnce(
  deps: Deps,
  loaded: LoadedConfig,
  service: ServiceConfig,
  options: PollOptions,
): Promise<PollResult> {
  const dir = watchDir(deps);
  await import("node:fs/promises").then((fs) => fs.mkdir(dir, { recursive: true, mode: 0o700 }));
  const lock = await acquireLock(`${dir}/lock`, processOwner(deps));
  if (!lock) return { announced: [], errors: [], warnings: [], busy: true };
  try {
    const scope = stateScope(service, options);
    const state = await readWatchState(dir, scope);
    const result: PollResult = { announced: [], errors: [], warnings: [] };
    const pollSessions = async (ctx: ServiceContext): Promise<WatchFact[]> => {
      const computerIds = await computersToWatch(ctx, options);
      if (computerIds === undefined) return [];
      const scan = await scanSessions(ctx, state, { now: deps.now(), computerIds });
      result.warnings.push(...scan.warnings);
      return scan.facts;
    };
    const parts: [string, (ctx: ServiceContext) => Promise<WatchFact[]>][] = [
      ["sessions", pollSessions],
      ["computers", (ctx) => pollComputers(ctx, state)],
      ["controls", (ctx) => pollControls(ctx, state)],
    ];
    if (options.digest) parts.push(["digest", (ctx) => pollDigest(ctx, state, deps.now())]);
    const alerts = service.alerts;
    if (alerts) parts.push(["alerts", (ctx) => pollAlerts(ctx, state, deps.now(), alerts)]);
    for (const [, part] of parts) {
      const timer = deadline(PART_MS, options.signal);
      try {
        const facts = await part({ service, env: deps.env, signal: timer.signal });
        for (const fact of facts)
          result.announced.push(await send(fact, loaded, service, deps, options));
      } catch (error) {
        result.errors.push(toHookNotifyError(error));
      } finally {
        timer.clear();
      }
      await lock.refresh();
    }
    await writeWatchState(dir, scope, state);
    return result;
  } finally {
    await lock.release();
  }
}

// What the state is kept apart by: the service (its base URL) and the computer filter, so a
// switch of baseUrl starts a new baseline instead of comparing two organisations.
function stateScope(service: ServiceConfig, options: PollOptions): string {
  const computers = [...(options.computerIds ?? [])].sort();
  return [
    service.baseUrl,
    ...computers,
    ...(options.hostId ? [`host ${options.hostId}`] : []),
  ].join("\n");
}

// The computer filter of this poll: the given ids plus the host's computers; [] for all, and
// undefined when a host was given that has no computer (nothing of mine to watch).
async function computersToWatch(
  ctx: ServiceContext,
  options: PollOptions,
): Promise<string[] | undefined> {
  const ids = [...(options.computerIds ?? [])];
  if (options.hostId === undefined) return ids;
  const ofHost = await listComputersOf(ctx, { hostId: options.hostId, steps: false });
  const all = [...new Set([...ids, ...ofHost.map((computer) => computer.id)])];
  return all.length > 0 ? all : undefined;
}

async function send(
  fact: WatchFact,
  loaded: LoadedConfig,
  service: ServiceConfig,
  deps: Deps,
  options: PollOptions,
): Promise<Notification> {
  const project = new URL(service.baseUrl).host;
  const notification = noticeOf(fact, loaded.value, {
    id: newNotificationId(),
    now: deps.now(),
    project,
  });
  const key =
    "sessionId" in fact ? fact.sessionId : "computerId" in fact ? fact.computerId : fact.kind;
  await announce(notification, loaded, deps, { configPath: options.configPath, key });
  return notification;
}

async function pollComputers(ctx: ServiceContext, state: WatchState): Promise<WatchFact[]> {
  const { facts, next } = detectComputers(state.computers, await listComputers(ctx));
  state.computers = next;
  for (const fact of facts) {
    const session = fact.failedSteps.find((step) => step.installSessionId)?.installSessionId;
    if (fact.kind === "ComputerError" && session)
      fact.installMessages = await lastMessageTexts(ctx, session, 3);
  }
  return facts;
}

async function pollControls(ctx: ServiceContext, state: WatchState): Promise<WatchFact[]> {
  const last = state.controlsRevision;
  const history: ControlChange[] = [];
  // Newest first: read down to the last seen revision, plus the one before the oldest new one.
  for await (const change of listControlHistory(ctx, last === undefined ? 1 : 20)) {
    history.push(change);
    if (last === undefined || change.revision < last || history.length >= 101) break;
    if (change.revision === last) break;
  }
  const { facts, next } = detectControls(last, history);
  state.controlsRevision = next;
  return facts;
}

async function pollDigest(
  ctx: ServiceContext,
  state: WatchState,
  now: number,
): Promise<WatchFact[]> {
  const date = yesterdayUtc(now);
  if (state.digestDate === date) return [];
  const fact = await fetchDigest(ctx, date);
  if (!fact) return [];
  state.digestDate = date;
  return [fact];
}

async function pollAlerts(
  ctx: ServiceContext,
  state: WatchState,
  now: number,
  alerts: UsageAlerts,
): Promise<WatchFact[]> {
  const date = yesterdayUtc(now);
  if (state.alertsDate === date) return [];
  const fact = await fetchUsageAlert(ctx, date, alerts);
  if (fact === undefined) return [];
  state.alertsDate = date;
  return fact ? [fact] : [];
}
