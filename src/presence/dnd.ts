// The system's own Do Not Disturb, read where the system keeps it: GNOME's show-banners setting,
// the notification daemon's Inhibited property (KDE Plasma's, and other daemons that have it),
// macOS Focus (the assertions file of the DoNotDisturb database), Windows 11's Do not disturb
// (its toast switch in the registry). The parsers are pure; readDnd starts at most one program (none for Inhibited).
// Windows 10's Focus assist keeps its state where no command reads it: unknown there.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { withDeadline } from "../abort.js";
import { runProbeProgram } from "./run-probe-program.js";

/** What was read: on, off, or unknown (`on` undefined), with where it came from. */
export interface DndReading {
  on: boolean | undefined;
  /** "gsettings", "Inhibited", "macOS Focus", "Windows": where it was read. */
  source: string;
  /** One line for the log and doctor; never event text. */
  detail: string;
}

interface DndDeps {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  homedir: string;
  /** The background worker: it reads from a reading it keeps fresh (readDnd below). */
  worker?: boolean | undefined;
}

const GNOME = /GNOME|Unity|Budgie|Pantheon|Cinnamon/i;
const WINDOWS_KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Notifications\\Settings";
const WINDOWS_VALUE = "NOC_GLOBAL_SETTING_TOASTS_ENABLED";

// The worker keeps the reading of each desktop it serves (its bus, its desktop, its home) and
// refreshes it in the background every REFRESH_MS while that desktop had an event in the last
// KEEP_MS (the worker's default linger), so a banner never waits for gsettings or a D-Bus read.
// A reading is used while younger than FRESH_MS: Do Not Disturb switched on reaches the sound
// within REFRESH_MS (banners go either way: the system holds them). Anything else reads each time.
const REFRESH_MS = 15_000;
const FRESH_MS = 2 * REFRESH_MS;
const KEEP_MS = 600_000;
const READ_MS = 5_000;

interface Kept {
  reading: DndReading;
  at: number;
  usedAt: number;
  deps: DndDeps;
  timer?: ReturnType<typeof setInterval>;
}
const kept = new Map<string, Kept>();
/** A read under way, shared by whoever asks meanwhile (one program, not one per asker). */
const underWay = new Map<string, Promise<DndReading>>();

export async function readDnd(deps: DndDeps, signal: AbortSignal): Promise<DndReading> {
  if (deps.worker !== true) return readDndNow(deps, signal);
  const { env } = deps;
  const key = JSON.stringify([
    deps.platform,
    deps.homedir,
    env.DBUS_SESSION_BUS_ADDRESS,
    env.XDG_CURRENT_DESKTOP,
    env.WSL_DISTRO_NAME,
  ]);
  const now = Date.now();
  const known = kept.get(key);
  if (known && now - known.at < FRESH_MS) {
    known.usedAt = now;
    known.deps = deps;
    return known.reading;
  }
  let read = underWay.get(key);
  if (!read) {
    read = readDndNow(deps, signal).finally(() => underWay.delete(key));
    underWay.set(key, read);
  }
  const reading = await read;
  const entry: Kept = known ?? { reading, at: now, usedAt: now, deps };
  Object.assign(entry, { reading, at: Date.now(), usedAt: now, deps });
  kept.set(key, entry);
  entry.timer ??= keepFresh(key, entry);
  return reading;
}

// The worker reads it as it starts, beside its own start (the reading is kept and refreshed as
// above): its first banner's run finds it read or under way instead of starting the program then.
export function readDndAhead(deps: DndDeps): void {
  // What it needs, named: a spread of the worker's Deps would run its getters (process.stdin,
  // stdout and stderr made, tty loaded: ~3 ms before a cold worker's first banner).
  const { env, platform, homedir } = deps;
  void withDeadline(READ_MS, (signal) =>
    readDnd({ env, platform, homedir, worker: true }, signal),
  ).catch(() => undefined);
}

function keepFresh(key: string, entry: Kept): ReturnType<typeof setInterval> {
  let reading = false;
  const timer = setInterval(() => {
    if (Date.now() - entry.usedAt > KEEP_MS) {
      clearInterval(timer);
      kept.delete(key);
      return;
    }
    if (reading) return;
    reading = true;
    void withDeadline(READ_MS, (signal) => readDndNow(entry.deps, signal))
      .then((fresh) => {
        entry.reading = fresh;
        entry.at = Date.now();
      })
      .catch(() => undefined)
      .finally(() => {
        reading = false;
      });
  }, REFRESH_MS);
  timer.unref(); // never what keeps the worker alive
  return timer;
}

async function readDndNow(deps: DndDeps, signal: AbortSignal): Promise<DndReading> {
  const { env } = deps;
  const options = { env, signal };
  if (deps.platform === "darwin") return readMacFocus(deps.homedir);
  if (deps.platform === "win32" || env.WSL_DISTRO_NAME) {
    const run = await runProbeProgram(
      "reg.exe",
      ["query", WINDOWS_KEY, "/v", WINDOWS_VALUE],
      options,
    );
    return run.ok
      ? readWindowsToasts(run.stdout)
      : unknown("Windows", `reg.exe: ${run.problem ?? "failed"}`);
  }
  // GNOME keeps it in its settings (its daemon has no Inhibited).
  if (!readsInhibited(deps)) {
    const args = ["get", "org.gnome.desktop.notifications", "show-banners"];
    const run = await runProbeProgram("gsettings", args, options);
    return run.ok
      ? readShowBanners(run.stdout)
      : unknown("gsettings", `gsettings: ${run.problem ?? "failed"}`);
  }
  return readInhibited(deps, signal);
}

/** Where Do Not Disturb is the notification daemon's Inhibited property (not macOS, Windows, WSL
 * or GNOME): the worker's D-Bus connection asks it behind its Hello (dbus/notifications.ts). */
export function readsInhibited(deps: Pick<DndDeps, "env" | "platform">): boolean {
  const { env, platform } = deps;
  if (platform === "darwin" || platform === "win32" || env.WSL_DISTRO_NAME) return false;
  return !GNOME.test(env.XDG_CURRENT_DESKTOP ?? "");
}

// The daemon's Inhibited property on hook-notify's own D-Bus connection (src/dbus; the worker's
// kept one, else one for this read), no program started.
async function readInhibited(deps: DndDeps, signal: AbortSignal): Promise<DndReading> {
  const { withBus } = await import("../dbus/notifications.js");
  try {
    const options = { worker: deps.worker, signal, ahead: { inhibited: true } };
    const on = await withBus(deps.env, options, (bus) => bus.inhibited(signal));
    return inhibitedReading(on);
  } catch (error) {
    const { dbusError, message } = error as { dbusError?: string; message: string };
    const why = /UnknownProperty|InvalidArgs|UnknownMethod/.test(dbusError ?? "")
      ? "the notification daemon has no Inhibited property"
      : `D-Bus: ${message}`;
    return unknown("Inhibited", why);
  }
}

function unknown(source: string, detail: string): DndReading {
  return { on: undefined, source, detail };
}

// `gsettings get org.gnome.desktop.notifications show-banners` prints "true" or "false".
export function readShowBanners(stdout: string): DndReading {
  const value = stdout.trim();
  if (value === "false")
    return {
      on: true,
      source: "gsettings",
      detail: "GNOME Do Not Disturb is on (show-banners false)",
    };
  if (value === "true")
    return {
      on: false,
      source: "gsettings",
      detail: "GNOME Do Not Disturb is off (show-banners true)",
    };
  return unknown("gsettings", "gsettings printed no boolean for show-banners");
}

// The daemon's Inhibited property, read.
export function inhibitedReading(on: boolean): DndReading {
  return {
    on,
    source: "Inhibited",
    detail: `the notification daemon ${on ? "is inhibited (Do Not Disturb on)" : "is not inhibited"}`,
  };
}

// `reg query … /v NOC_GLOBAL_SETTING_TOASTS_ENABLED`: 0x0 while Do not disturb is on (Windows 11).
export function readWindowsToasts(stdout: string): DndReading {
  const value = new RegExp(`${WINDOWS_VALUE}\\s+REG_DWORD\\s+(0x[0-9a-f]+)`, "i").exec(stdout)?.[1];
  if (value === undefined) return unknown("Windows", `${WINDOWS_VALUE} is not set`);
  const on = Number(value) === 0;
  return {
    on,
    source: "Windows",
    detail: `Windows Do not disturb is ${on ? "on" : "off"} (${WINDOWS_VALUE} ${value})`,
  };
}

// macOS 12+: a Focus that is on has a record in Assertions.json (reading it may need Full Disk
// Access for the terminal).
async function readMacFocus(home: string): Promise<DndReading> {
  const file = join(home, "Library", "DoNotDisturb", "DB", "Assertions.json");
  try {
    return readMacAssertions(await readFile(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return unknown(
      "macOS Focus",
      `${file}: ${code}${code === "EPERM" ? " (Full Disk Access?)" : ""}`,
    );
  }
}

export function readMacAssertions(text: string): DndReading {
  try {
    const json = JSON.parse(text) as { data?: { storeAssertionRecords?: unknown[] }[] };
    const records = (json.data ?? []).flatMap((entry) => entry.storeAssertionRecords ?? []);
    const on = records.length > 0;
    return { on, source: "macOS Focus", detail: `macOS Focus is ${on ? "on" : "off"}` };
  } catch {
    return unknown("macOS Focus", "Assertions.json is not JSON");
  }
}
