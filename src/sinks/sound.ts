import type { ChildProcess } from "node:child_process";
import { basename, join } from "node:path";
import * as z from "zod/mini";
import type { Deps } from "../deps.js";
import { HookNotifyError } from "../errors.js";
import type { Level } from "../message/notification.js";
import { assetsDir } from "./assets.js";
import { findFirstProgram, findProgram } from "./find-program.js";
import { defineSink } from "./sink.js";

function optionsSchema() {
  return z.strictObject({
    player: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.describe(
            "Player program (name on PATH or absolute path). Default: the first of paplay, pw-play, aplay, play, ffplay, mpv on PATH; afplay on macOS; PowerShell on Windows.",
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
        })
        .check(z.describe("Your own sound files per level, instead of the shipped ones.")),
    ),
  });
}

type SoundOptions = z.infer<ReturnType<typeof optionsSchema>>;

// Players tried in order; each plays the shipped WAV files. play-sound's own list finds none on Debian.
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
const PLAYERS: Record<string, PlayerTable> = {
  darwin: { names: ["afplay"], args: {} },
  win32: { names: ["powershell.exe", "pwsh.exe"], args: {} },
};

// The shipped (or configured) sound for a level: attention, done or failure.
export function soundFile(level: Level, opts: SoundOptions): string {
  return opts.files?.[level] ?? join(assetsDir(), "sounds", `${level}.wav`);
}

interface Player {
  name: string;
  path: string;
  args: string[];
}

// The player to use: the configured one, else the first of the platform's players on PATH.
export function choosePlayer(
  opts: SoundOptions,
  deps: Pick<Deps, "env" | "platform">,
): Player | undefined {
  const table = PLAYERS[deps.platform] ?? UNIX_PLAYERS;
  const found = opts.player
    ? ((path) => (path ? { name: opts.player ?? "", path } : undefined))(
        findProgram(opts.player, deps.env, deps.platform),
      )
    : findFirstProgram(table.names, deps.env, deps.platform);
  if (!found) return undefined;
  const base = basename(found.name).replace(/\.exe$/i, "");
  const windowsArgs = [
    "-NoProfile",
    "-NonInteractive",
    "-ExecutionPolicy",
    "Bypass",
    "-File",
    join(assetsDir(), "play.ps1"),
  ];
  const args =
    opts.playerArgs ?? (deps.platform === "win32" ? windowsArgs : (table.args[base] ?? []));
  return { ...found, args };
}

export const sound = defineSink({
  type: "sound",
  options: optionsSchema,
  remote: false,
  describeTarget: (opts) => opts.player ?? "platform player",
  render(notification, opts, deps) {
    const player = choosePlayer(opts, deps);
    return {
      player: player?.name ?? null,
      args: [...(player?.args ?? []), soundFile(notification.level, opts)],
    };
  },
  async send(notification, opts, ctx) {
    const player = choosePlayer(opts, ctx.deps);
    if (!player) {
      const hint = opts.player
        ? `"${opts.player}" is not on PATH`
        : "no audio player found (tried paplay, pw-play, aplay, play, ffplay, mpv)";
      throw new HookNotifyError(
        "SINK_UNAVAILABLE",
        `${ctx.sinkName}: ${hint}. Install one (Debian/Ubuntu: apt install pulseaudio-utils or alsa-utils) or set "player".`,
        { sink: ctx.sinkName, retryable: false },
      );
    }
    await play(player, soundFile(notification.level, opts), ctx);
  },
});

// play-sound's published types only know its ten built-in player names; this is what it really does.
type PlaySoundFactory = (opts: { player: string }) => {
  play(
    file: string,
    options: Record<string, unknown>,
    done: (code: number | null) => void,
  ): ChildProcess | null;
};

// play-sound spawns with an argv array; it is loaded here only, and its child never outlives a wait.
async function play(
  player: Player,
  file: string,
  ctx: { signal: AbortSignal; wait: boolean; sinkName: string; deps: Deps },
): Promise<void> {
  if (file === "") {
    // play-sound would call back at once and start nothing: on the hook path nothing would settle.
    throw new HookNotifyError(
      "CONFIG_INVALID",
      `${ctx.sinkName}: "files" names an empty file. Name a WAV file or remove the entry.`,
      { sink: ctx.sinkName, retryable: false },
    );
  }
  const playSound = (await import("play-sound")).default as unknown as PlaySoundFactory;
  await new Promise<void>((resolve, reject) => {
    const spawnOptions = {
      [player.path]: player.args,
      env: ctx.deps.env,
      detached: !ctx.wait,
      ...(ctx.wait ? { signal: ctx.signal } : {}),
    };
    const child = playSound({ player: player.path }).play(
      file,
      spawnOptions,
      (code: number | null) => {
        if (!ctx.wait) return;
        // play-sound reports exit 0 and death by a signal both as null; the child tells them apart.
        const signal = child?.signalCode ?? null;
        if (signal === null && (code === null || code === 0)) {
          resolve();
          return;
        }
        const how =
          signal === null ? `exited with code ${String(code)}` : `was killed by ${signal}`;
        reject(
          new HookNotifyError(
            "SINK_FAILED",
            `${ctx.sinkName}: ${player.name} ${how} playing ${file}.`,
            { sink: ctx.sinkName, retryable: false },
          ),
        );
      },
    );
    child?.on("error", (error: NodeJS.ErrnoException) => {
      const code = error.name === "AbortError" ? "SINK_TIMEOUT" : "SINK_UNAVAILABLE";
      reject(
        new HookNotifyError(
          code,
          `${ctx.sinkName}: ${player.name}: ${error.code ?? error.message}`,
          { sink: ctx.sinkName, cause: error },
        ),
      );
    });
    if (!ctx.wait) {
      child?.unref();
      child?.once("spawn", () => {
        resolve();
      });
    }
  });
}
