// Starting a chosen player through play-sound, and watching it.
import { resolve } from "node:path";
import { HookNotifyError } from "../errors.js";
import {
  spawnOptions,
  watchProgram,
  type ProgramResult,
  type RunProgramOptions,
} from "./run-program.js";
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
