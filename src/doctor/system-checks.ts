// Checks of the machine itself: node, SSH, desktop notifications, the audio player, the log.
import { existsSync } from "node:fs";
import { logPath } from "../config/paths.js";
import type { SinkEntry } from "../config/validate-config.js";
import type { Deps } from "../deps.js";
import { backendFor, hasSessionBus } from "../sinks/desktop.js";
import { findProgram } from "../sinks/find-program.js";
import { choosePlayer } from "../sinks/sound.js";
import { fail, ok, warn, type CheckResult } from "./check.js";

type MachineDeps = Pick<Deps, "env" | "platform" | "homedir">;

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

// Over SSH, desktop and sound sinks notify the remote machine, where nobody is looking.
export function checkSsh(env: Deps["env"], entries: readonly SinkEntry[]): CheckResult | undefined {
  if (!env.SSH_CONNECTION && !env.SSH_TTY) return undefined;
  const local = entries.filter((e) => e.type === "desktop" || e.type === "sound");
  if (local.length === 0) return ok("ssh", "over SSH; no desktop or sound sink configured");
  return warn(
    "ssh",
    "over SSH: desktop and sound fire on this machine, not on the one you are sitting at",
    "Add a chat (ntfy, Slack, …) or email sink to be notified where you are: hook-notify init --force",
  );
}

// The same checks the desktop sink makes before it starts notify-send.
export function checkDesktop(entry: SinkEntry, deps: MachineDeps): CheckResult {
  const name = `desktop (${entry.name})`;
  const backend = backendFor(entry.options as { backend: "auto" }, deps.platform);
  if (backend === "node-notifier") return ok(name, "node-notifier (macOS, Windows)");
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
