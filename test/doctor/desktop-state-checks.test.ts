import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFocus, dndResult } from "../../src/doctor/desktop-state-checks.js";
import { runBin, tempHome } from "../helpers/run-bin.js";
import { fakeBin } from "../helpers/fake-bin.js";

describe("dndResult", () => {
  const on = {
    on: true,
    source: "gsettings",
    detail: "GNOME Do Not Disturb is on (show-banners false)",
  };
  it("says what was read, where, and what the mode makes of it", () => {
    expect(dndResult(on, "respect")).toMatchObject({
      status: "ok",
      detail:
        'GNOME Do Not Disturb is on (show-banners false) (read from gsettings); "dnd": "respect": banners go (the system holds them), sounds are not played',
    });
    expect(dndResult(on, "remote").detail).toContain("desktop and sound are skipped");
    expect(
      dndResult({ on: undefined, source: "Inhibited", detail: "no property" }, "respect"),
    ).toMatchObject({
      status: "warn",
    });
  });
});

describe("checkFocus", () => {
  const path = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
  it("Linux in tmux: the pane", () => {
    const env = { ...path, TMUX: "/tmp/t/default,1,0", TMUX_PANE: "%4" };
    expect(checkFocus({ env, platform: "linux", homedir: "/", ppid: 5 })).toMatchObject({
      status: "ok",
      detail: expect.stringMatching(/^tmux pane %4/) as unknown,
    });
  });
  it("GNOME on Wayland outside tmux: a warning that says why", () => {
    const env = { PATH: "/nonexistent", WAYLAND_DISPLAY: "wayland-0" };
    expect(checkFocus({ env, platform: "linux", homedir: "/" })).toMatchObject({
      status: "warn",
      detail: expect.stringMatching(/Wayland compositor/) as unknown,
    });
  });
  it("macOS and Windows", () => {
    expect(
      checkFocus({ env: { TERM_PROGRAM: "Apple_Terminal" }, platform: "darwin", homedir: "/" })
        .detail,
    ).toBe("activates com.apple.Terminal (terminal-notifier's -activate)");
    expect(checkFocus({ env: {}, platform: "win32", homedir: "/" }).status).toBe("warn");
  });
});

describe.runIf(process.platform === "linux")(
  "doctor shows what it read (built binary, real gsettings)",
  () => {
    it("GNOME's show-banners false in a keyfile backend", async () => {
      const bin = fakeBin([], { real: { gsettings: "/usr/bin/gsettings" } });
      const home = tempHome({
        ...bin.env,
        XDG_CURRENT_DESKTOP: "GNOME",
        GSETTINGS_BACKEND: "keyfile",
      });
      const dir = join(home.dir, "config", "glib-2.0", "settings");
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "keyfile"),
        "[org/gnome/desktop/notifications]\nshow-banners=false\n",
      );
      // "remote" skips the desktop sink while it is on: Do Not Disturb matters, so it is read.
      home.writeConfig({ dnd: "remote", sinks: { desktop: { type: "desktop" } } });
      const result = await runBin(["doctor", "--json"], { env: home.env, killAfterMs: 120_000 });
      const rows = JSON.parse(result.stdout) as { check: string; detail: string }[];
      expect(rows.find((row) => row.check === "do not disturb")?.detail).toMatch(
        /^GNOME Do Not Disturb is on \(show-banners false\) \(read from gsettings\)/,
      );
      expect(rows.some((row) => row.check === "click to focus")).toBe(true);
    }, 150_000);
  },
);
