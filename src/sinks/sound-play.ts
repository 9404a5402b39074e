// Starting a chosen player: through play-sound, watched, and for PowerShell the file handed in
// its environment (a Windows path on WSL).
import { resolve } from "node:path";
import { HookNotifyError } from "../errors.js";
import { findProgram } from "./find-program.js";
import { windowsEnv } from "./platform.js";
import {
  spawnOptions,
  watchProgram,
  type ProgramResult,
  type RunProgramOptions,
} from "./run-program.js";
import type { SendContext } from "./sink.js";
import type { Player } from "./sound-player.js";

// Starts the chosen player through play-sound and watches it. play-sound gets the player's path
// (so it never runs find-exec, which asks a shell `command -v`), our options for node's spawn
// (argument array, no shell, detached on the hook path, the deadline's signal when we wait) and
// the arguments keyed by that path; it appends its `what` as the last argument: the sound file,
// or for PowerShell the encoded fixed script (the file is then in HOOK_NOTIFY_SOUND). Its own
// callback reports an exit code as the error and a killed player as success, and it listens for
// no 'error' event: watchProgram reads the child itself.
export async function play(
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

// PowerShell reads the file from HOOK_NOTIFY_SOUND; on WSL it must be a Windows path
// (wslpath -w) and listed in WSLENV to cross into the Windows process.
export async function powerShellEnv(
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
