// doctor's check of the voice sink: the speech program it would start here.
import { fail, ok, type CheckResult } from "../check-result.js";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import { chooseSpeaker } from "./voice.js";

// The same choice the voice sink makes.
export function checkVoice(entry: SinkEntry, deps: Pick<Deps, "env" | "platform">): CheckResult {
  const name = `voice (${entry.name})`;
  const options = entry.options as Parameters<typeof chooseSpeaker>[0];
  const speaker = chooseSpeaker(options, deps);
  if (speaker?.powershell) return ok(name, `${speaker.path}: System.Speech (SAPI)`);
  if (speaker) return ok(name, `${speaker.name} (${speaker.path})`);
  const what = options.program
    ? `"${options.program}" is not on PATH`
    : "no speech program on PATH (spd-say, espeak-ng, espeak)";
  return fail(name, what, 'Install one: sudo apt install espeak-ng, or set "program".', {
    sink: entry.name,
  });
}
