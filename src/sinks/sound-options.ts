// A sound entry's options: the player, its arguments, and sound files per level.
import * as z from "../zod.js";

export function optionsSchema() {
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

export type SoundOptions = z.infer<ReturnType<typeof optionsSchema>>;
