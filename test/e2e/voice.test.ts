// The voice sink with a REAL espeak-ng (Debian: apt install espeak-ng sox), through the built
// binary as a client runs it: a Stop is spoken (HOOK_NOTIFY_VOICE_FILE makes espeak-ng write the
// speech to a WAV file, whose length sox and the WAV header both measure), and with Do Not
// Disturb on (GNOME's show-banners false, read by a real gsettings) nothing is spoken.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeBin } from "../helpers/fake-bin.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";
import { waitUntil, workerDone } from "../helpers/wait-until.js";

const ESPEAK = "/usr/bin/espeak-ng";
const GSETTINGS = "/usr/bin/gsettings";
const STOP = fixture("claude-code/Stop.json");
const hasEspeak = process.platform === "linux" && existsSync(ESPEAK);

// Seconds of audio in a PCM WAV file, from its header: the data chunk's size over the byte rate.
function wavSeconds(file: string): number {
  const bytes = readFileSync(file);
  const byteRate = bytes.readUInt32LE(28);
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString("latin1", at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === "data") return Math.min(size, bytes.length - at - 8) / byteRate;
    at += 8 + size;
  }
  return 0;
}

// sox's own reading of the length (soxi -D), when sox is installed.
function soxSeconds(file: string): number | undefined {
  try {
    return Number(execFileSync("soxi", ["-D", file], { encoding: "utf8" }).trim());
  } catch {
    return undefined;
  }
}

function voiceHome(showBanners?: boolean) {
  const bin = fakeBin([], {
    real: { "espeak-ng": ESPEAK, ...(existsSync(GSETTINGS) ? { gsettings: GSETTINGS } : {}) },
  });
  const said = bin.scratch("said.wav");
  const home = tempHome({
    ...bin.env,
    HOOK_NOTIFY_VOICE_FILE: said,
    ...(showBanners === undefined
      ? {}
      : {
          XDG_CURRENT_DESKTOP: "ubuntu:GNOME",
          GSETTINGS_BACKEND: "keyfile",
          DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus",
        }),
  });
  if (showBanners !== undefined) {
    const keyfile = join(home.dir, "config", "glib-2.0", "settings", "keyfile");
    mkdirSync(join(keyfile, ".."), { recursive: true });
    writeFileSync(
      keyfile,
      `[org/gnome/desktop/notifications]\nshow-banners=${String(showBanners)}\n`,
    );
  }
  home.writeConfig({ sinks: { speak: { type: "voice" } } });
  return { home, said };
}

describe.runIf(hasEspeak)("voice with a real espeak-ng", () => {
  it("a Stop is spoken: more than half a second of speech, by sox and by the WAV header", async () => {
    const { home, said } = voiceHome();
    const result = await runBin(["--timeout", "10"], { input: STOP, env: home.env });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    // The worker starts espeak-ng detached; it has written the whole file once the header's
    // length is there.
    await waitUntil(() => existsSync(said) && wavSeconds(said) > 0, "the spoken WAV file");
    await workerDone(home);
    const seconds = wavSeconds(said);
    expect(seconds).toBeGreaterThan(0.5);
    const sox = soxSeconds(said);
    if (sox !== undefined) expect(Math.abs(sox - seconds)).toBeLessThan(0.05);
    const line = home.logLines().find((l) => l.event === "Stop");
    expect(line?.outcomes).toEqual([expect.objectContaining({ sink: "speak", ok: true })]);
  }, 60_000);

  it.runIf(existsSync(GSETTINGS))(
    "with Do Not Disturb on, nothing is spoken and the log says why",
    async () => {
      const { home, said } = voiceHome(false);
      const result = await runBin(["--timeout", "10"], { input: STOP, env: home.env });
      expect(result).toMatchObject({ code: 0, stdout: "" });
      await waitUntil(() => home.logLines().some((l) => l.event === "Stop"), "the Stop's log line");
      await workerDone(home);
      const line = home.logLines().find((l) => l.event === "Stop");
      expect(line?.skipped).toEqual([expect.objectContaining({ sink: "speak", rule: "dnd" })]);
      expect(line?.outcomes).toEqual([]);
      expect(existsSync(said)).toBe(false);
    },
    60_000,
  );
});
