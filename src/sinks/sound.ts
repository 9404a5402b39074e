import { basename, join, resolve } from "node:path";
import * as z from "../zod.js";
import type { Deps } from "../deps.js";
import { HookNotifyError } from "../errors.js";
import { QUIET_LEVELS, type Level, type Notification } from "../core/notification.js";
import { assetsDir } from "./assets.js";
import { findFirstProgram, findProgram, programUnavailable } from "./find-program.js";
import { findPowerShell, isWsl, powerShellArgs, settleMs, windowsEnv } from "./platform.js";
import {
  spawnOptions,
  watchProgram,
  type ProgramResult,
  type RunProgramOptions,
} from "./run-program.js";
import { defineSink, type SendContext } from "./sink.js";

function optionsSchema() {
  return z.strictObject({
    player: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.describe(
            "Player program (name on PATH or absolute path). Default: afplay on macOS; Windows PowerShell (System.Media.SoundPlayer) on Windows and in WSL; else the first of paplay, pw-play, aplay, play, ffplay, mpv on PATH.",
          ),
        ),
    ),
    playerArgs: z.optional(
      z
        .array(z.string())
        .check(
          z.describe(
            "Arguments placed before the sound file, instead of the player's usual quiet flags.",
          ),
        ),
    ),
    files: z.optional(
      z
        .strictObject({
          attention: z.optional(
            z
              .string()
              .check(z.describe("Sound when the agent waits for you (WAV plays everywhere).")),
          ),
          done: z.optional(z.string().check(z.describe("Sound when the agent finished."))),
          failure: z.optional(z.string().check(z.describe("Sound for a failure."))),
          info: z.optional(
            z
              .string()
              .check(
                z.describe(
                  "Sound for a notice (a login, a background agent finished, a plugin's message). Default: none, the notice is not played.",
                ),
              ),
          ),
          limit: z.optional(
            z
              .string()
              .check(
                z.describe(
                  "Sound for a usage limit (the agent stopped until the limit resets). Default: none, the limit is not played.",
                ),
              ),
          ),
        })
        .check(
          z.describe(
            "Your own sound files per level, instead of the shipped ones (docs/levels.md). A notice and a usage limit play nothing unless named here.",
          ),
        ),
    ),
  });
}

type SoundOptions = z.infer<ReturnType<typeof optionsSchema>>;

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

// The shipped (or configured) sound for a level: attention, done or failure; a notice or a usage
// limit only when configured (otherwise `silentFor` keeps the sink from being asked).
// A configured relative name is made absolute (from the folder the player would start in), so
// that no file name can reach a player as one of its options ("-x").
export function soundFile(level: Level, opts: SoundOptions): string {
  const configured = opts.files?.[level];
  if (configured === "") return "";
  return configured === undefined
    ? join(assetsDir(), "sounds", `${level}.wav`)
    : resolve(configured);
}

// A notice or a usage limit has no shipped sound: the sink is skipped for it (route.ts), unless
// `files` names one.
function silentFor(notification: Notification, opts: SoundOptions): string | undefined {
  const { level } = notification;
  if (!QUIET_LEVELS.includes(level) || opts.files?.[level] !== undefined) return undefined;
  const what = level === "info" ? "a notice" : "a usage limit";
  return `${what} plays no sound ("files": {"${level}": "<file.wav>"} plays one)`;
}

/** A player: argv ones get the file as the last argument; PowerShell gets it in its environment. */
interface Player {
  name: string;
  path: string;
  args: string[];
  /** Windows PowerShell's SoundPlayer; on WSL the file's path is converted with wslpath -w. */
  powershell?: { wsl: boolean };
}

type PlayerDeps = Pick<Deps, "env" | "platform" | "osRelease">;

// The player to use: the configured one, else the platform's: afplay on macOS, Windows
// PowerShell on Windows and WSL (through interop), else the first Linux player on PATH.
export function choosePlayer(opts: SoundOptions, deps: PlayerDeps): Player | undefined {
  if (opts.player) {
    const path = findProgram(opts.player, deps.env, deps.platform);
    if (!path) return undefined;
    const base = basename(opts.player).replace(/\.exe$/i, "");
    return { name: opts.player, path, args: opts.playerArgs ?? UNIX_PLAYERS.args[base] ?? [] };
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

export const sound = defineSink({
  type: "sound",
  options: optionsSchema,
  remote: false,
  audible: true,
  describeTarget: (opts) => opts.player ?? "platform player",
  check: async (entry, ctx) => (await import("./sound-check.js")).checkSound(entry, ctx.deps),
  starters: [{ choice: "sound", entry: () => ({ type: "sound" }) }],
  explain: () => undefined,
  silentFor,
  render(notification, opts, deps) {
    const player = choosePlayer(opts, deps);
    const file = soundFile(notification.level, opts);
    if (player?.powershell)
      return { player: player.name, args: player.args, env: { HOOK_NOTIFY_SOUND: file } };
    return { player: player?.name ?? null, args: [...(player?.args ?? []), file] };
  },
  async send(notification, opts, ctx) {
    const player = choosePlayer(opts, ctx.deps);
    if (!player) throw unavailable(opts, ctx);
    const file = soundFile(notification.level, opts);
    if (file === "") {
      throw new HookNotifyError(
        "CONFIG_INVALID",
        `${ctx.sinkName}: "files" names an empty file. Name a WAV file or remove the entry.`,
        { sink: ctx.sinkName, retryable: false },
      );
    }
    const env = player.powershell
      ? await powerShellEnv(file, player.powershell.wsl, ctx)
      : ctx.deps.env;
    const result = await play(
      player,
      file,
      {
        env,
        signal: ctx.signal,
        wait: ctx.wait,
        sinkName: ctx.sinkName,
        settleMs: settleMs("sound", ctx.deps.env),
        fix: `Check that ${player.name} can play ${file} (run hook-notify test --sink ${ctx.sinkName}).`,
      },
      platformPlayers(ctx.deps),
    );
    return result === "running" ? { started: true } : undefined;
  },
});

// Starts the chosen player through play-sound and watches it. play-sound gets the player's path
// (so it never runs find-exec, which asks a shell `command -v`), our options for node's spawn
// (argument array, no shell, detached on the hook path, the deadline's signal when we wait) and
// the arguments keyed by that path; it appends its `what` as the last argument: the sound file,
// or for PowerShell the encoded fixed script (the file is then in HOOK_NOTIFY_SOUND). Its own
// callback reports an exit code as the error and a killed player as success, and it listens for
// no 'error' event: watchProgram reads the child itself.
async function play(
  player: Player,
  file: string,
  run: RunProgramOptions,
  players: readonly string[],
): Promise<ProgramResult> {
  const argv = player.powershell ? player.args : [...player.args, file];
  const what = argv.at(-1) ?? file;
  // Absolute, so that the key for its arguments is never one of spawn's own options ("env").
  const path = resolve(player.path);
  const { default: playSound } = await import("play-sound");
  // Its types name only its own default players; it takes any program (a name or a path).
  const engine = playSound({ players: players as never, player: path as never });
  const spawnWith = { ...spawnOptions(run), [path]: argv.slice(0, -1) };
  let child: ReturnType<typeof engine.play>;
  try {
    child = engine.play(what, spawnWith as never);
  } catch (error) {
    // spawn throws for arguments node refuses (a NUL byte in a configured path, a .cmd on Windows).
    throw new HookNotifyError(
      "SINK_UNAVAILABLE",
      `${run.sinkName}: could not start ${path} (${(error as Error).message.split("\n")[0] ?? ""}). ${run.fix ?? ""}`.trim(),
      { sink: run.sinkName, cause: error, retryable: false },
    );
  }
  return watchProgram(child, path, run);
}

function unavailable(opts: SoundOptions, ctx: SendContext): HookNotifyError {
  return programUnavailable(ctx.sinkName, ctx.deps.platform, {
    configured: opts.player,
    setting: "player",
    mac: "afplay",
    tried: "audio player found (tried paplay, pw-play, aplay, play, ffplay, mpv)",
    install: "apt install pulseaudio-utils or alsa-utils",
  });
}

// PowerShell reads the file from HOOK_NOTIFY_SOUND; on WSL it must be a Windows path
// (wslpath -w) and listed in WSLENV to cross into the Windows process.
async function powerShellEnv(
  file: string,
  wsl: boolean,
  ctx: SendContext,
): Promise<Record<string, string | undefined>> {
  const path = wsl ? await toWindowsPath(file, ctx) : file;
  return windowsEnv(ctx.deps.env, { HOOK_NOTIFY_SOUND: path }, wsl);
}

async function toWindowsPath(file: string, ctx: SendContext): Promise<string> {
  const wslpath = findProgram("wslpath", ctx.deps.env, ctx.deps.platform) ?? "/usr/bin/wslpath";
  const { execFile } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    execFile(
      wslpath,
      ["-w", file],
      { env: ctx.deps.env, signal: ctx.signal, timeout: 2000 },
      (error, stdout) => {
        const converted = stdout.trim();
        if (!error && converted) {
          resolve(converted);
          return;
        }
        reject(
          new HookNotifyError(
            "SINK_FAILED",
            `${ctx.sinkName}: wslpath -w could not convert ${file} for Windows (${error?.message.split("\n")[0] ?? "no output"}).`,
            { sink: ctx.sinkName, cause: error, retryable: false },
          ),
        );
      },
    );
  });
}
