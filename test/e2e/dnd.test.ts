// Do Not Disturb on the built binary, read from a real gsettings: GNOME's show-banners in a
// keyfile backend under the run's own XDG_CONFIG_HOME (GSETTINGS_BACKEND=memory would live only
// in one process). Fake players record whether they were started, an in-process D-Bus whether a
// banner was sent.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeBin } from "../helpers/fake-bin.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

const NOTIFICATION = fixture("claude-code/Notification.json");
// The run lines (one per event), not the banner's receipts, which come with the daemon's reply.
const runLines = (home: { logLines(): Record<string, unknown>[] }) =>
  home.logLines().filter((line) => line.event !== undefined);

const PLAYERS = ["paplay", "pw-play", "aplay", "play", "ffplay", "mpv"] as const;
const hasGsettings =
  process.platform === "linux" &&
  (() => {
    try {
      const keys = ["list-keys", "org.gnome.desktop.notifications"];
      return execFileSync("/usr/bin/gsettings", keys, { encoding: "utf8" }).includes(
        "show-banners",
      );
    } catch {
      return false;
    }
  })();

async function gnomeHome(showBanners: boolean, dnd?: string) {
  const bin = fakeBin([...PLAYERS], { real: { gsettings: "/usr/bin/gsettings" } });
  const bus = await fakeNotificationBus();
  const home = tempHome({
    ...bin.env,
    ...bus.env,
    XDG_CURRENT_DESKTOP: "ubuntu:GNOME",
    GSETTINGS_BACKEND: "keyfile",
  });
  const keyfile = join(home.dir, "config", "glib-2.0", "settings", "keyfile");
  mkdirSync(join(keyfile, ".."), { recursive: true });
  writeFileSync(
    keyfile,
    `[org/gnome/desktop/notifications]\nshow-banners=${String(showBanners)}\n`,
  );
  home.writeConfig({
    sinks: { desktop: { type: "desktop" }, sound: { type: "sound" } },
    ...(dnd ? { dnd } : {}),
  });
  return { bin, bus, home };
}

const played = (bin: ReturnType<typeof fakeBin>) =>
  bin.calls().filter((call) => (PLAYERS as readonly string[]).includes(call.program));

describe.runIf(hasGsettings)("Do Not Disturb from GNOME's show-banners (real gsettings)", () => {
  it("show-banners false: the banner is sent, no sound is played, and the log says why", async () => {
    const { bin, bus, home } = await gnomeHome(false);
    const result = await runBin(["--wait", "--timeout", "60"], {
      input: NOTIFICATION,
      env: home.env,
      killAfterMs: 120_000,
    });
    expect({ code: result.code, stderr: result.stderr }).toMatchObject({ code: 0 });
    expect(bus.calls()).toHaveLength(1);
    expect(bin.calls()).toEqual([]);
    expect(played(bin)).toEqual([]);
    const [line] = runLines(home);
    expect(line?.dnd).toBe("GNOME Do Not Disturb is on (show-banners false)");
    expect(line?.skipped).toEqual([
      {
        sink: "sound",
        rule: "dnd",
        reason: expect.stringMatching(
          /^GNOME Do Not Disturb is on .*it is not played or spoken/,
        ) as unknown,
      },
    ]);
  }, 150_000);

  it("hook mode: the worker that runs the event reads it the same way", async () => {
    const { bin, home } = await gnomeHome(false);
    const result = await runBin(["--timeout", "60"], {
      input: NOTIFICATION,
      env: home.env,
      killAfterMs: 120_000,
    });
    expect({ code: result.code, stderr: result.stderr }).toMatchObject({ code: 0 });
    expect(result.stdout).toBe("");
    let line: Record<string, unknown> | undefined;
    for (let i = 0; i < 600 && !line; i++) {
      line = home.logLines().find((entry) => entry.event === "Notification");
      if (!line) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(line).toMatchObject({
      via: "worker",
      dnd: expect.stringContaining("show-banners false") as unknown,
    });
    expect(line?.skipped).toMatchObject([{ sink: "sound", rule: "dnd" }]);
    expect(played(bin)).toEqual([]);
  }, 150_000);

  it('"dnd": "remote" skips the banner too; show-banners true plays the sound', async () => {
    const remote = await gnomeHome(false, "remote");
    await runBin(["--wait", "--timeout", "60"], {
      input: NOTIFICATION,
      env: remote.home.env,
      killAfterMs: 120_000,
    });
    expect(remote.bin.calls()).toEqual([]);
    expect(remote.bus.calls()).toEqual([]);
    expect(runLines(remote.home)[0]?.skipped).toHaveLength(2);

    const off = await gnomeHome(true);
    await runBin(["--wait", "--timeout", "60"], {
      input: NOTIFICATION,
      env: off.home.env,
      killAfterMs: 120_000,
    });
    expect(played(off.bin)).toHaveLength(1);
    expect(runLines(off.home)[0]?.skipped).toEqual([]);
  }, 150_000);
});
