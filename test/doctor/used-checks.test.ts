// Doctor starts a program only for what the config uses: Do Not Disturb's reader where it changes
// a sink (pipeline/dnd.ts), the presence probes where a sink, a follow-up or approve asks them.
// The probes and readers are shell scripts that note their start in a file (the probes run with
// a trimmed environment, so the note's path is in the script) and fail.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDoctor } from "../../src/doctor/run-doctor.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { tempHome } from "../helpers/run-bin.js";

const READERS = ["gsettings", "gdbus", "xdotool", "xprintidle", "xprop"];

async function doctorWith(config: unknown) {
  const bin = fakeBin(["paplay"]);
  const bus = await fakeNotificationBus();
  const notes = bin.scratch("started");
  for (const name of READERS) {
    const script = join(bin.dir, name);
    writeFileSync(script, `#!/bin/sh\necho ${name} >> '${notes}'\nexit 1\n`);
    chmodSync(script, 0o755);
  }
  const home = tempHome({ ...bin.env, ...bus.env, DISPLAY: ":0", XDG_CURRENT_DESKTOP: "GNOME" });
  const configPath = home.writeConfig(config);
  const results = await runDoctor(
    {
      env: home.env,
      platform: "linux",
      arch: "x64",
      osRelease: "6.1.0",
      cwd: home.dir,
      homedir: home.dir,
      now: Date.now,
      ppid: process.pid,
    },
    { configPath, nodeVersion: process.versions.node },
  );
  const started = new Set(existsSync(notes) ? readFileSync(notes, "utf8").split("\n") : []);
  const detail = (check: string) => results.find((r) => r.check === check)?.detail;
  return { started: READERS.filter((name) => started.has(name)), detail };
}

describe.runIf(process.platform === "linux")("doctor reads what the config uses", () => {
  it("desktop only: no Do Not Disturb reader, no presence probe; a line says why", async () => {
    const run = await doctorWith({ sinks: { desktop: { type: "desktop" } } });
    expect(run.started).toEqual([]);
    expect(run.detail("do not disturb")).toMatch(/^not read: "dnd": "respect" changes only sound/);
    expect(run.detail("presence")).toMatch(/^no sink waits for you to be away .*not probed/);
  });

  it('a sound sink, a "when": "away" sink and follow-ups: both are read', async () => {
    const run = await doctorWith({
      sinks: {
        sound: { type: "sound" },
        away: { type: "desktop", when: "away" },
      },
      escalate: { afterSeconds: 300, to: ["sound"] },
    });
    expect(run.started).toContain("gsettings");
    expect(run.started).toEqual(expect.arrayContaining(["xdotool", "xprintidle"]));
    expect(run.detail("presence")).toMatch(
      /sinks that ask it \("when": "away", digest\): away; also asked by follow-ups \(escalate\)$/,
    );
  });
});
