// Linux and the BSDs, in the background worker only: ONE dbus-monitor per session bus while the
// worker has banners to follow, so the log learns how each banner ended: clicked (and what the
// click brought back), or closed with the daemon's reason (NotificationClosed: expired,
// dismissed, closed by a program). Notify's reply gives only the id. dbus-monitor becomes a
// monitor (BecomeMonitor), so it also sees the signals GNOME Shell and dunst send only to the
// banner's sender, even once that sender is gone; its match rules let through nothing but the
// daemon's two signals, with numbers and the literal "default" (banner-signals.ts parses them).
// A banner is followed for at most its sink's focusSeconds, and at most MAX_FOLLOWED at once.
// While someone holds the listener (a banner on its way, its id not known yet), a signal for an
// id nobody follows is kept (the last MAX_EARLY): a press in the instant between the banner
// showing and its id being followed is read when it is, not lost;
// with nothing left to follow the listener is stopped (a worker killed outright leaves it to end
// at its next line: its pipe has no reader). Argument arrays only, never a shell.
import type { ChildProcess } from "node:child_process";
import type { Deps } from "../deps.js";
import { ACTION_KEYS, createSignalParser, type BannerSignal } from "./banner-signals.js";
import { findProgram } from "./find-program.js";
import type { BannerEnd } from "./sink.js";

/** Banners followed at once on one bus; a newer one ends the oldest one's following. */
export const MAX_FOLLOWED = 16;
/** Signals kept for ids not followed yet, while a hold is out (a press before its follow). */
const MAX_EARLY = 64;
/** How long dbus-monitor may take to say it monitors (NameLost) before it is taken as listening. */
const READY_MS = 3_000;

const DAEMON =
  "sender='org.freedesktop.Notifications',path='/org/freedesktop/Notifications',interface='org.freedesktop.Notifications'";
/** The listener's match rules: the daemon's NotificationClosed, and ActionInvoked on "default"
 * and on approve's action keys (banner-signals.ts): fixed literals, never text from outside. */
export const MATCH_RULES = [
  `type='signal',${DAEMON},member='NotificationClosed'`,
  ...ACTION_KEYS.map((key) => `type='signal',${DAEMON},member='ActionInvoked',arg1='${key}'`),
];

export interface FollowOptions {
  /** How long the banner is followed at most. */
  seconds: number;
  /** What a click on the banner does; returns what it brought back, one item per step. */
  onClick?: (() => Promise<string[]>) | undefined;
}

/** A hold on the bus's listener: follow the banner's id once it is known, or release it. */
export interface ListenerHold {
  follow(id: string, options: FollowOptions): Promise<BannerEnd>;
  release(): void;
}

interface Followed {
  resolve(end: BannerEnd): void;
  timer: NodeJS.Timeout;
  onClick?: (() => Promise<string[]>) | undefined;
}

type Heard = Exclude<BannerSignal, { kind: "ready" }>;

interface Listener {
  child: ChildProcess;
  followed: Map<string, Followed>;
  /** Signals for ids nobody followed yet, kept while a hold is out. */
  early: Map<string, Heard>;
  holds: number;
  /** Takes it out of the bus's slot, so the next banner starts a new one. */
  forget: () => void;
  /** No ready mark came: it may only eavesdrop, and miss signals sent only to the sender. */
  unsure: boolean;
}

const listeners = new Map<string, Promise<Listener | { why: string }>>();

// A hold on the listener of this environment's session bus, started if none runs; or why there
// is none ("dbus-monitor not found"). Resolves once it listens, so no banner's end is missed.
export async function holdListener(
  deps: Pick<Deps, "env" | "platform">,
): Promise<ListenerHold | { why: string }> {
  const key = deps.env.DBUS_SESSION_BUS_ADDRESS ?? deps.env.XDG_RUNTIME_DIR ?? "";
  let started = listeners.get(key);
  if (!started) {
    const slot: Promise<Listener | { why: string }> = startListener(deps, () => {
      if (listeners.get(key) === slot) listeners.delete(key);
    });
    listeners.set(key, slot);
    started = slot;
  }
  const listener = await started;
  if ("why" in listener) return listener;
  listener.holds++;
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    listener.holds--;
    stopWhenIdle(listener);
  };
  return {
    follow: (id, options) => {
      const end = follow(listener, id, options);
      release();
      return end;
    },
    release,
  };
}

const NO_MONITOR = "dbus-monitor not found (Debian/Ubuntu: dbus-bin; Fedora: dbus-tools)";

/** Why no listener can start here (known before a banner is shown); undefined when one can. */
export function listenerMissing(deps: Pick<Deps, "env" | "platform">): string | undefined {
  return findProgram("dbus-monitor", deps.env, deps.platform) ? undefined : NO_MONITOR;
}

async function startListener(
  deps: Pick<Deps, "env" | "platform">,
  forget: () => void,
): Promise<Listener | { why: string }> {
  const path = findProgram("dbus-monitor", deps.env, deps.platform);
  if (!path) return { why: NO_MONITOR };
  const { spawn } = await import("node:child_process");
  const child = spawn(path, ["--session", ...MATCH_RULES], {
    env: deps.env,
    stdio: ["ignore", "pipe", "pipe"],
    shell: false,
  });
  const listener: Listener = {
    child,
    followed: new Map(),
    early: new Map(),
    holds: 0,
    forget,
    unsure: false,
  };
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    if (stderr.length < 2000) stderr += chunk;
  });
  return new Promise((resolve) => {
    const parser = createSignalParser();
    let pending = "";
    const ready = (): void => {
      clearTimeout(unsure);
      resolve(listener);
    };
    const unsure = setTimeout(() => {
      listener.unsure = true;
      ready();
    }, READY_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = (lines.pop() ?? "").slice(-4096);
      for (const line of lines) {
        const signal = parser.push(line);
        if (signal?.kind === "ready") ready();
        else if (signal) onSignal(listener, signal);
      }
    });
    const gone = (what: string): void => {
      clearTimeout(unsure);
      forget();
      const line = stderr.trim().split("\n")[0]?.slice(0, 160);
      const why = `dbus-monitor ${what}${line ? `: ${line}` : ""}`;
      resolve({ why });
      endAll(listener, `the listener ended (${why})`);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      gone(`could not start (${error.code ?? error.message})`);
    });
    child.once("close", (code, signal) => {
      gone(code === null ? `stopped by ${signal ?? "a signal"}` : `exited with ${String(code)}`);
    });
  });
}

function follow(listener: Listener, id: string, options: FollowOptions): Promise<BannerEnd> {
  return new Promise((resolve) => {
    listener.followed.get(id)?.resolve({ ended: "unknown", id, reason: "its id was reused" });
    const seconds = Math.max(1, Math.round(options.seconds));
    const unsure = listener.unsure
      ? "; the listener may only eavesdrop and miss a daemon's signals to the sender"
      : "";
    const timer = setTimeout(() => {
      end(listener, id, {
        ended: "unknown",
        id,
        reason: `not closed within ${String(seconds)} s${unsure}`,
      });
    }, seconds * 1000);
    listener.followed.set(id, { resolve, timer, onClick: options.onClick });
    const heard = listener.early.get(id);
    listener.early.delete(id);
    if (heard) onSignal(listener, heard);
    if (listener.followed.size > MAX_FOLLOWED) {
      const [oldest] = listener.followed.keys();
      if (oldest !== undefined)
        end(listener, oldest, {
          ended: "unknown",
          id: oldest,
          reason: `no longer followed: ${String(MAX_FOLLOWED)} newer banners are`,
        });
    }
  });
}

function onSignal(listener: Listener, signal: Heard): void {
  const followed = listener.followed.get(signal.id);
  if (!followed) {
    keepEarly(listener, signal);
    return;
  }
  if (signal.kind === "closed") {
    end(listener, signal.id, { ended: "closed", id: signal.id, reason: signal.reason });
    return;
  }
  // The click: the banner is no longer followed (its close comes next), its action runs.
  clearTimeout(followed.timer);
  listener.followed.delete(signal.id);
  if (signal.action !== "default") {
    // One of approve's buttons: the key is the answer (banner-actions.ts).
    followed.resolve({ ended: "clicked", id: signal.id, reason: signal.action });
    stopWhenIdle(listener);
    return;
  }
  void (async () => {
    const steps = followed.onClick ? await followed.onClick() : [];
    followed.resolve({
      ended: "clicked",
      id: signal.id,
      reason: steps.length > 0 ? steps.join(", ") : "nothing to bring back",
    });
    stopWhenIdle(listener);
  })();
}

// A signal for an id nobody follows: kept only while a hold is out (its banner's id may be
// followed next), the first one per id (a click, then its close), the newest MAX_EARLY ids.
function keepEarly(listener: Listener, signal: Heard): void {
  if (listener.holds === 0 || listener.early.has(signal.id)) return;
  listener.early.set(signal.id, signal);
  if (listener.early.size > MAX_EARLY) {
    const [oldest] = listener.early.keys();
    if (oldest !== undefined) listener.early.delete(oldest);
  }
}

function end(listener: Listener, id: string, how: BannerEnd): void {
  const followed = listener.followed.get(id);
  if (!followed) return;
  clearTimeout(followed.timer);
  listener.followed.delete(id);
  followed.resolve(how);
  stopWhenIdle(listener);
}

function endAll(listener: Listener, reason: string): void {
  for (const id of [...listener.followed.keys()])
    end(listener, id, { ended: "unknown", id, reason });
}

// Nothing followed and nobody about to follow: the listener goes.
function stopWhenIdle(listener: Listener): void {
  if (listener.holds === 0) listener.early.clear();
  if (listener.followed.size > 0 || listener.holds > 0) return;
  listener.forget();
  if (listener.child.exitCode === null && listener.child.signalCode === null)
    listener.child.kill("SIGTERM");
}
