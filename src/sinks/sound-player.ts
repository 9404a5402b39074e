// Which program plays a sound: the configured player, else the platform's (afplay on macOS,
// Windows PowerShell on Windows and WSL, else the first Linux player on PATH), with its arguments.
import { basename } from "node:path";
import type { Deps } from "../deps.js";
import { findFirstProgram, findProgram } from "./find-program.js";
import { findPowerShell, isWsl, powerShellArgs } from "./platform.js";
import type { SoundOptions } from "./sound-options.js";
import { own } from "../own.js";

// Linux players tried in order; each plays the shipped WAV files.
interface PlayerTable {
  names: string[];
  args: Record<string, string[]>;
}
const UNIX_PLAYERS: PlayerTable = {
  names: ["paplay", "pw-play", "aplay", "play", "ffplay", "mpv"],
  args: {
    aplay: ["-q"],
    play: ["-q"],
    ffplay: ["-nodisp", "-autoexit", "-loglevel", "quiet"],
    mpv: ["--really-quiet", "--no-video"],
  },
};

/** hook-notify's ordered player list per platform, handed to play-sound as its `players`. */
export function platformPlayers(deps: PlayerDeps): readonly string[] {
  if (deps.platform === "darwin") return ["afplay"];
  if (deps.platform === "win32" || isWsl(deps)) return ["powershell.exe", ...UNIX_PLAYERS.names];
  return UNIX_PLAYERS.names;
}

/** Windows PowerShell plays the file named in HOOK_NOTIFY_SOUND: no script file, no quoting. */
export const SOUND_SCRIPT =
  "(New-Object System.Media.SoundPlayer $env:HOOK_NOTIFY_SOUND).PlaySync()";

/** A player: argv ones get the file as the last argument; PowerShell gets it in its environment. */
export interface Player {
  name: string;
  path: string;
  args: string[];
  /** Windows PowerShell's SoundPlayer; on WSL the file's path is converted with wslpath -w. */
  powershell?: { wsl: boolean };
}

export type PlayerDeps = Pick<Deps, "env" | "platform" | "osRelease">;

// The player to use: the configured one, else the platform's: afplay on macOS, Windows
// PowerShell on Windows and WSL (through interop), else the first Linux player on PATH.
export function choosePlayer(opts: SoundOptions, deps: PlayerDeps): Player | undefined {
  if (opts.player) {
    const path = findProgram(opts.player, deps.env, deps.platform);
    if (!path) return undefined;
    const base = basename(opts.player).replace(/\.exe$/i, "");
    return { name: opts.player, path, args: opts.playerArgs ?? own(UNIX_PLAYERS.args, base) ?? [] };
  }
  if (deps.platform === "darwin") {
    const path = findProgram("afplay", deps.env, deps.platform);
    return path ? { name: "afplay", path, args: opts.playerArgs ?? [] } : undefined;
  }
  const wsl = isWsl(deps);
  const powershell = deps.platform === "win32" || wsl ? findPowerShell(deps) : undefined;
  if (powershell) {
    return {
      name: "powershell.exe",
      path: powershell,
      args: powerShellArgs(SOUND_SCRIPT),
      powershell: { wsl },
    };
  }
  if (deps.platform === "win32") return undefined;
  const found = findFirstProgram(platformPlayers(deps), deps.env, deps.platform);
  if (!found) return undefined;
  return { ...found, args: opts.playerArgs ?? UNIX_PLAYERS.args[found.name] ?? [] };
}
