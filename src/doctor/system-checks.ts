// Checks of the machine itself: node, SSH, desktop notifications, the audio player, the log.
import { existsSync } from "node:fs";
import { logPath } from "../config/paths.js";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import { backendFor, hasSessionBus } from "../sinks/desktop.js";
import { findProgram } from "../sinks/find-program.js";
import { choosePlayer } from "../sinks/sound.js";
import { headlessContainerOf, remoteSessionOf } from "../pipeline/policy.js";
import { fail, ok, warn, type CheckResult } from "./check.js";
import { checkMacDesktop, checkWindowsDesktop } from "./desktop-checks.js";
import { checkNodeNotifier } from "./node-notifier-checks.js";

type MachineDeps = Pick<Deps, "env" | "platform" | "homedir" | "arch" | "osRelease">;

const MIN_NODE = [20, 19] as const;

// hook-notify declares engines node >=20.19; older versions miss APIs it uses.
export function checkNode(version: string): CheckResult {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const good = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return good
    ? ok("node", `Node.js ${version}`)
    : fail("node", `Node.js ${version} is older than 20.19`, "Install Node.js 20.19 or newer.", {
        blocks: true,
      });
}

// Over SSH or in a container without a display, desktop and sound would fire where nobody is:
// the hook skips them (the "ssh" and "container" rules) unless localSinksOverSsh keeps them.
export function checkSsh(
  deps: Pick<Deps, "env" | "platform">,
  entries: readonly SinkEntry[],
  keepAll: boolean,
): CheckResult | undefined {
  const ssh = remoteSessionOf(deps.env);
  const why = ssh ?? headlessContainerOf(deps.env, deps.platform, existsSync);
  if (!why) return undefined;
  const name = ssh ? "ssh" : "container";
  const local = entries.filter((e) => e.type === "desktop" || e.type === "sound");
  if (local.length === 0) return ok(name, `${why}; no desktop or sound sink configured`);
  const kept = local.filter((e) => e.localSinksOverSsh ?? keepAll).map((e) => e.name);
  const what =
    kept.length === local.length
      ? "desktop and sound are kept (localSinksOverSsh) and fire on this machine"
      : "desktop and sound are skipped here";
  return warn(
    name,
    `${why}: ${what}`,
    "Add a chat (ntfy, Slack, …) or email sink to be notified where you are: hook-notify init --force",
  );
}

// The route the desktop sink takes here, checked the way the sink will run it.
export async function checkDesktop(entry: SinkEntry, deps: MachineDeps): Promise<CheckResult> {
  const name = `desktop (${entry.name})`;
  const backend = backendFor(entry.options as { backend: "auto" }, deps);
  if (backend === "macos" || backend === "osascript") return checkMacDesktop(entry, deps);
  if (backend === "powershell") return checkWindowsDesktop(entry, deps);
  if (backend === "node-notifier") {
    const notifier = checkNodeNotifier(entry, deps);
    if (notifier) return notifier;
  }
  const path = findProgram("notify-send", deps.env, deps.platform);
  if (!path) {
    return fail(
      name,
      "notify-send is not on PATH",
      "Install it: sudo apt install libnotify-bin (Fedora: sudo dnf install libnotify)",
      { sink: entry.name },
    );
  }
  if (!hasSessionBus(deps.env)) {
    return fail(
      name,
      `${path}, but no D-Bus session bus or display (SSH or a container?)`,
      "Run where a desktop session is, or use a chat or email sink on this machine.",
      { sink: entry.name },
    );
  }
  return ok(name, `${path} with a session bus`);
}

// The same player choice the sound sink makes.
export function checkSound(entry: SinkEntry, deps: MachineDeps): CheckResult {
  const name = `sound (${entry.name})`;
  const options = entry.options as Parameters<typeof choosePlayer>[0];
  const player = choosePlayer(options, deps);
  if (player?.powershell) {
    const how = player.powershell.wsl ? "through WSL interop, the file's path by wslpath -w" : "";
    return ok(name, `${player.path}: System.Media.SoundPlayer ${how}`.trim());
  }
  if (player) return ok(name, `${player.name} (${player.path})`);
  const what = options.player ? `"${options.player}" is not on PATH` : "no audio player on PATH";
  return fail(
    name,
    what,
    'Install one: sudo apt install pulseaudio-utils (or alsa-utils), or set "player".',
    { sink: entry.name },
  );
}

// Where the run log is, for "what happened at 3 am?".
export function checkLog(deps: MachineDeps): CheckResult {
  const file = logPath(deps);
  return ok("log", existsSync(file) ? file : `${file} (not written yet)`);
}
