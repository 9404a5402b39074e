// What the desktop sink would find here: the system's Do Not Disturb as read now, with what the
// "dnd" option makes of it, and the place a click on a banner would bring back. Doctor runs in
// the terminal the agent would use, so its variables and parent stand for the agent's.
import { withDeadline } from "../abort.js";
import type { DndMode } from "../core/config.js";
import type { Deps } from "../deps.js";
import { describePlace, findPlace, linuxFocusGap } from "../focus/place.js";
import { readDnd, type DndReading } from "../presence/dnd.js";
import { findProgram } from "../sinks/find-program.js";
import { ok, warn, type CheckResult } from "../check-result.js";

type StateDeps = Pick<Deps, "env" | "platform" | "homedir" | "ppid">;

// read false: no enabled sink that it changes (pipeline/dnd.ts), so the program is not started.
export async function checkDnd(
  deps: StateDeps,
  mode: DndMode,
  read: boolean,
): Promise<CheckResult> {
  if (mode === "ignore") return ok("do not disturb", 'not read ("dnd": "ignore")');
  if (!read)
    return ok(
      "do not disturb",
      `not read: "dnd": "${mode}" changes only sound and voice, and no such sink is enabled (banners go; the system holds them while it is on)`,
    );
  const reading = await withDeadline(10_000, (signal) => readDnd(deps, signal));
  return dndResult(reading, mode);
}

// Pure: the line for one reading and mode.
export function dndResult(reading: DndReading, mode: DndMode): CheckResult {
  const read = `${reading.detail} (read from ${reading.source})`;
  if (reading.on === undefined)
    return warn(
      "do not disturb",
      `${read}: unknown, so banners and sounds go as usual`,
      "Nothing to do unless you use Do Not Disturb; then see docs/desktop.md (Do Not Disturb).",
    );
  if (!reading.on) return ok("do not disturb", `${read}; "dnd": "${mode}"`);
  const effect =
    mode === "respect"
      ? "banners go (the system holds them), sounds are not played"
      : 'desktop and sound are skipped, "when": "away" sinks go';
  return ok("do not disturb", `${read}; "dnd": "${mode}": ${effect}`);
}

// What a click on a banner brings back from this terminal.
export function checkFocus(deps: StateDeps): CheckResult {
  const { env, platform } = deps;
  const place = findPlace(env, platform, deps.ppid);
  const what = describePlace(place);
  if (platform === "darwin") {
    return place.macBundleId
      ? ok("click to focus", `activates ${place.macBundleId} (terminal-notifier's -activate)`)
      : warn(
          "click to focus",
          "the terminal app is not known (no __CFBundleIdentifier, TERM_PROGRAM not one hook-notify knows)",
          "Banners still show; a click brings nothing back.",
        );
  }
  if (platform === "win32" || env.WSL_DISTRO_NAME) {
    return place.windowsTerminal
      ? ok("click to focus", "brings Windows Terminal to the front")
      : warn(
          "click to focus",
          "not in Windows Terminal (WT_SESSION is not set)",
          "Banners still show; a click brings nothing back.",
        );
  }
  const gap = linuxFocusGap(place, (program) => !!findProgram(program, env, platform));
  if (gap)
    return warn(
      "click to focus",
      `${what ? `${what}, but ` : ""}${gap}`,
      "Banners still show without an action. Run the agent in tmux, or install xdotool on X11.",
    );
  return ok("click to focus", `${what} (the banner's default action, listened for by the worker)`);
}
