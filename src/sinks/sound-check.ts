// doctor's check of the sound sink: the player it would start here.
import { fail, ok, type CheckResult } from "../check-result.js";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import { choosePlayer } from "./sound-player.js";

// The same player choice the sound sink makes.
export function checkSound(
  entry: SinkEntry,
  deps: Pick<Deps, "env" | "platform" | "homedir">,
): CheckResult {
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
