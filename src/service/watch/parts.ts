// The parts of one watch poll, each on its own: sessions (narrowed to my computers when asked),
// computers (with the failed step's install session's last messages), enterprise controls, and
// the daily digest and usage alerts when asked for. Each reads and updates its piece of the state.
import type { ServiceConfig, UsageAlerts } from "../../core/config.js";
import type { Deps } from "../../deps.js";
import { listComputers, listControlHistory, type ServiceContext } from "../client.js";
import { listComputersOf } from "../computer-api.js";
import type { ControlChange } from "../schemas.js";
import { fetchUsageAlert } from "./alerts.js";
import { lastMessageTexts } from "./describe-turn.js";
import { detectComputers } from "./detect-computers.js";
import { detectControls } from "./detect-controls.js";
import { fetchDigest, yesterdayUtc } from "./digest.js";
import { learnOrg } from "./org.js";
import type { WatchFact } from "./notices.js";
import type { PollOptions, PollResult } from "./poll.js";
import { scanSessions } from "./sessions.js";
import type { WatchState } from "./state.js";

/** One part of a poll: reads the service, updates the state, returns the facts to announce. */
export type Part = (ctx: ServiceContext) => Promise<WatchFact[]>;

// The parts of one poll, in order: the organisation's name (once a day, for the titles),
// sessions, computers, controls, and the digest and alerts when asked for. The sessions part
// adds its warnings to `result`.
export function partsOf(
  deps: Deps,
  service: ServiceConfig,
  options: PollOptions,
  state: WatchState,
  result: PollResult,
): Part[] {
  const pollSessions: Part = async (ctx) => {
    const computerIds = await computersToWatch(ctx, options);
    if (computerIds === undefined) return [];
    const scan = await scanSessions(ctx, state, { now: deps.now(), computerIds });
    result.warnings.push(...scan.warnings);
    return scan.facts;
  };
  const parts: Part[] = [
    (ctx) => learnOrg(ctx, state, deps.now()).then(() => []),
    pollSessions,
    (ctx) => pollComputers(ctx, state),
    (ctx) => pollControls(ctx, state),
  ];
  if (options.digest) parts.push((ctx) => pollDigest(ctx, state, deps.now()));
  const alerts = service.alerts;
  if (alerts) parts.push((ctx) => pollAlerts(ctx, state, deps.now(), alerts));
  return parts;
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
