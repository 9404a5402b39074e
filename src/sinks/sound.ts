// A sound per level through the platform's player (play-sound, no shell): afplay, PowerShell or a
// Linux player; on the hook path it starts the player and does not wait.
import { join, resolve } from "node:path";
import { HookNotifyError } from "../errors.js";
import { QUIET_LEVELS, type Level, type Notification } from "../core/notification.js";
import { assetsDir } from "./assets.js";
import { programUnavailable } from "./find-program.js";
import { settleMs } from "./platform.js";
import { defineSink, type SendContext } from "./sink.js";
import { play } from "./sound-play.js";
import { powerShellEnv } from "./sound-powershell.js";
import { choosePlayer, platformPlayers } from "./sound-player.js";
import { optionsSchema, type SoundOptions } from "./sound-options.js";

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

function unavailable(opts: SoundOptions, ctx: SendContext): HookNotifyError {
  return programUnavailable(ctx.sinkName, ctx.deps.platform, {
    configured: opts.player,
    setting: "player",
    mac: "afplay",
    tried: "audio player found (tried paplay, pw-play, aplay, play, ffplay, mpv)",
    install: "apt install pulseaudio-utils or alsa-utils",
  });
}
