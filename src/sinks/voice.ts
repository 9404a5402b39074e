// The voice sink: the notification's title, spoken by the platform's speech program, chosen and
// ordered like the sound sink's players: `say` on macOS; Windows PowerShell's System.Speech (SAPI)
// on Windows and in WSL, the text in an environment variable of a fixed script; else the first of
// spd-say, espeak-ng, espeak on PATH. The text is one argument of an argument array, never a
// shell's. It is audible (Sink.audible): Do Not Disturb keeps it quiet as it does the sound, and
// quiet hours, presence and the SSH/container rules apply as to every local sink.
import { basename } from "node:path";
import * as z from "../zod.js";
import type { Deps } from "../deps.js";
import type { HookNotifyError } from "../errors.js";
import type { Notification } from "../core/notification.js";
import { findFirstProgram, findProgram, programUnavailable } from "./find-program.js";
import { findPowerShell, isWsl, powerShellArgs, settleMs, windowsEnv } from "./platform.js";
import { runProgram } from "./run-program.js";
import { defineSink, type SendContext } from "./sink.js";

function optionsSchema() {
  return z.strictObject({
    program: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.describe(
            "Speech program (name on PATH or absolute path): spd-say, espeak-ng, espeak or say. Default: say on macOS; Windows PowerShell (System.Speech) on Windows and in WSL; else the first of spd-say, espeak-ng, espeak on PATH.",
          ),
        ),
    ),
    voice: z.optional(
      z
        .string()
        .check(
          z.regex(/^[\w.+ -]{1,64}$/, "a voice name: letters, digits, spaces, . + - _"),
          z.describe(
            "The program's voice (say -v, espeak-ng -v, spd-say -y; on Windows a SAPI voice name). Default: the program's own.",
          ),
        ),
    ),
  });
}

type VoiceOptions = z.infer<ReturnType<typeof optionsSchema>>;

/** Linux speech programs, in the order tried. */
const UNIX_SPEAKERS = ["spd-say", "espeak-ng", "espeak"] as const;

/** Speaks $env:HOOK_NOTIFY_SPEAK (and picks $env:HOOK_NOTIFY_VOICE when set): no text in the script. */
export const SPEAK_SCRIPT = [
  "Add-Type -AssemblyName System.Speech",
  "$s = New-Object System.Speech.Synthesis.SpeechSynthesizer",
  "if ($env:HOOK_NOTIFY_VOICE) { $s.SelectVoice($env:HOOK_NOTIFY_VOICE) }",
  "$s.Speak($env:HOOK_NOTIFY_SPEAK)",
].join("; ");

/** espeak-ng (and espeak) write the speech to this WAV file instead of the speakers, when set: a
 * way to hear nothing and measure what would be said (the tests do). */
export const VOICE_FILE_ENV = "HOOK_NOTIFY_VOICE_FILE";

type SpeakerDeps = Pick<Deps, "env" | "platform" | "osRelease">;

/** The program and how it is run: argv ones get the text as their last argument; PowerShell in
 * its environment. */
export interface Speaker {
  name: string;
  path: string;
  powershell?: { wsl: boolean };
}

// The speaker to use: the configured one, else the platform's. With HOOK_NOTIFY_VOICE_FILE set,
// only a program that can write a file (espeak-ng, espeak) is chosen.
export function chooseSpeaker(opts: VoiceOptions, deps: SpeakerDeps): Speaker | undefined {
  if (opts.program) {
    const path = findProgram(opts.program, deps.env, deps.platform);
    return path ? { name: basename(opts.program).replace(/\.exe$/i, ""), path } : undefined;
  }
  const toFile = Boolean(deps.env[VOICE_FILE_ENV]);
  if (deps.platform === "darwin" && !toFile) {
    const path = findProgram("say", deps.env, deps.platform);
    return path ? { name: "say", path } : undefined;
  }
  const wsl = isWsl(deps);
  const powershell =
    (deps.platform === "win32" || wsl) && !toFile ? findPowerShell(deps) : undefined;
  if (powershell) return { name: "powershell.exe", path: powershell, powershell: { wsl } };
  if (deps.platform === "win32") return undefined;
  const names = toFile ? UNIX_SPEAKERS.filter((name) => name !== "spd-say") : UNIX_SPEAKERS;
  return findFirstProgram(names, deps.env, deps.platform);
}

// What is said: the title, one line. A leading "-" would read as an option: a space before it.
export function spokenText(notification: Notification): string {
  const text = notification.title.replace(/\s+/g, " ").trim();
  return text.startsWith("-") ? ` ${text}` : text;
}

// The argument array for an argv speaker (the text last, alone), or PowerShell's fixed script.
export function speakerArgs(
  speaker: Speaker,
  opts: VoiceOptions,
  text: string,
  env: Deps["env"],
): string[] {
  if (speaker.powershell) return powerShellArgs(SPEAK_SCRIPT);
  const voice = opts.voice;
  const file = env[VOICE_FILE_ENV];
  switch (speaker.name) {
    case "spd-say":
      // --wait: the program lives as long as the speech (the hook leaves it running).
      return [...(voice ? ["-y", voice] : []), "--wait", text];
    case "espeak-ng":
    case "espeak":
      return [...(voice ? ["-v", voice] : []), ...(file ? ["-w", file] : []), text];
    case "say":
      return [...(voice ? ["-v", voice] : []), text];
    default:
      return [text];
  }
}

export const voice = defineSink({
  type: "voice",
  options: optionsSchema,
  remote: false,
  audible: true,
  describeTarget: (opts) => opts.program ?? "platform speech",
  check: async (entry, ctx) => (await import("./voice-check.js")).checkVoice(entry, ctx.deps),
  starters: [{ choice: "voice", chosenOnly: true, entry: () => ({ type: "voice" }) }],
  explain: () => undefined,
  render(notification, opts, deps) {
    const speaker = chooseSpeaker(opts, deps);
    const text = spokenText(notification);
    if (!speaker) return { program: null, text };
    const args = speakerArgs(speaker, opts, text, deps.env);
    if (speaker.powershell)
      return { program: speaker.name, args, env: { HOOK_NOTIFY_SPEAK: text } };
    return { program: speaker.name, args };
  },
  async send(notification, opts, ctx) {
    const speaker = chooseSpeaker(opts, ctx.deps);
    if (!speaker) throw unavailable(opts, ctx);
    const text = spokenText(notification);
    const env = speaker.powershell
      ? windowsEnv(
          ctx.deps.env,
          { HOOK_NOTIFY_SPEAK: text, ...(opts.voice ? { HOOK_NOTIFY_VOICE: opts.voice } : {}) },
          speaker.powershell.wsl,
        )
      : ctx.deps.env;
    const result = await runProgram(speaker.path, speakerArgs(speaker, opts, text, ctx.deps.env), {
      env,
      signal: ctx.signal,
      wait: ctx.wait,
      sinkName: ctx.sinkName,
      settleMs: settleMs("sound", ctx.deps.env),
      fix: `Check that ${speaker.name} speaks (run hook-notify test --sink ${ctx.sinkName}).`,
    });
    return result === "running" ? { started: true } : undefined;
  },
});

function unavailable(opts: VoiceOptions, ctx: SendContext): HookNotifyError {
  return programUnavailable(ctx.sinkName, ctx.deps.platform, {
    configured: opts.program,
    setting: "program",
    mac: "say",
    tried: "speech program found (tried spd-say, espeak-ng, espeak)",
    install: "apt install espeak-ng, or speech-dispatcher",
  });
}
