import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { decide, probePresence, type PresenceState } from "../../src/presence/probe.js";
import { planProbes } from "../../src/presence/probes.js";
import { fakeProbes, type FakeProbeProgram } from "../helpers/fake-probes.js";

// The test process is the "agent"; its own pid stands for the terminal when the fake says it is
// in front (every pid is among its own ancestors), and pid 999999 for some other application.
const SELF = String(process.pid);
const PS = execFileSync("sh", ["-c", "command -v ps"], { encoding: "utf8" }).trim();
// Node-script fakes start slowly on a loaded machine; real probe programs get the 1 s default.
const SLOW_FAKES_MS = 8000;
const OTHER = "999999";

interface Case {
  name: string;
  platform: NodeJS.Platform;
  env: Record<string, string>;
  programs: FakeProbeProgram[];
  fake: Record<string, string>;
  state: PresenceState;
  probe: string;
}

const X11 = { DISPLAY: ":0" };
const GNOME_WAYLAND = { WAYLAND_DISPLAY: "wayland-0", XDG_CURRENT_DESKTOP: "GNOME" };
const SWAY = { WAYLAND_DISPLAY: "wayland-1", SWAYSOCK: "/run/sway.sock" };
const HYPR = { WAYLAND_DISPLAY: "wayland-1", HYPRLAND_INSTANCE_SIGNATURE: "abc" };
const WSL = { WSL_DISTRO_NAME: "Ubuntu" };
const x11: FakeProbeProgram[] = ["xdotool", "xprop", "xprintidle"];
const mac: FakeProbeProgram[] = ["lsappinfo", "ioreg"];

const cases: Case[] = [
  {
    name: "X11 terminal in front, active",
    platform: "linux",
    env: X11,
    programs: x11,
    fake: { FAKE_ACTIVE_PID: SELF, FAKE_IDLE_MS: "2000" },
    state: "present",
    probe: "xdotool",
  },
  {
    name: "X11 other window in front",
    platform: "linux",
    env: X11,
    programs: x11,
    fake: { FAKE_ACTIVE_PID: OTHER, FAKE_IDLE_MS: "2000" },
    state: "away",
    probe: "xdotool",
  },
  {
    name: "X11 terminal in front, idle",
    platform: "linux",
    env: X11,
    programs: x11,
    fake: { FAKE_ACTIVE_PID: SELF, FAKE_IDLE_MS: "600000" },
    state: "away",
    probe: "xprintidle",
  },
  {
    name: "X11 without xprintidle",
    platform: "linux",
    env: X11,
    programs: ["xdotool"],
    fake: { FAKE_ACTIVE_PID: SELF },
    state: "unknown",
    probe: "none",
  },
  {
    name: "X11 probes cannot tell",
    platform: "linux",
    env: X11,
    programs: x11,
    fake: {},
    state: "unknown",
    probe: "none",
  },
  {
    name: "GNOME Wayland, idle",
    platform: "linux",
    env: GNOME_WAYLAND,
    programs: ["gdbus"],
    fake: { FAKE_IDLE_MS: "900000" },
    state: "away",
    probe: "gdbus",
  },
  {
    name: "GNOME Wayland, active (focus unknowable)",
    platform: "linux",
    env: GNOME_WAYLAND,
    programs: ["gdbus"],
    fake: { FAKE_IDLE_MS: "1000" },
    state: "unknown",
    probe: "none",
  },
  {
    name: "Sway other window focused",
    platform: "linux",
    env: SWAY,
    programs: ["swaymsg"],
    fake: { FAKE_ACTIVE_PID: OTHER },
    state: "away",
    probe: "swaymsg",
  },
  {
    name: "Sway terminal focused, idle unknown",
    platform: "linux",
    env: SWAY,
    programs: ["swaymsg"],
    fake: { FAKE_ACTIVE_PID: SELF },
    state: "unknown",
    probe: "none",
  },
  {
    name: "Hyprland other window focused",
    platform: "linux",
    env: HYPR,
    programs: ["hyprctl"],
    fake: { FAKE_ACTIVE_PID: OTHER },
    state: "away",
    probe: "hyprctl",
  },
  {
    name: "macOS terminal frontmost, active",
    platform: "darwin",
    env: {},
    programs: mac,
    fake: { FAKE_ACTIVE_PID: SELF, FAKE_IDLE_MS: "3000" },
    state: "present",
    probe: "lsappinfo",
  },
  {
    name: "macOS other app frontmost",
    platform: "darwin",
    env: {},
    programs: mac,
    fake: { FAKE_ACTIVE_PID: OTHER, FAKE_IDLE_MS: "3000" },
    state: "away",
    probe: "lsappinfo",
  },
  {
    name: "macOS idle",
    platform: "darwin",
    env: {},
    programs: mac,
    fake: { FAKE_ACTIVE_PID: SELF, FAKE_IDLE_MS: "400000" },
    state: "away",
    probe: "ioreg",
  },
  {
    name: "macOS probes missing",
    platform: "darwin",
    env: {},
    programs: [],
    fake: {},
    state: "unknown",
    probe: "none",
  },
  {
    name: "WSL terminal in front",
    platform: "linux",
    env: WSL,
    programs: ["powershell.exe"],
    fake: { FAKE_ACTIVE_NAME: "WindowsTerminal", FAKE_ACTIVE_PID: "4242", FAKE_IDLE_MS: "1000" },
    state: "present",
    probe: "powershell",
  },
  {
    name: "WSL browser in front",
    platform: "linux",
    env: WSL,
    programs: ["powershell.exe"],
    fake: { FAKE_ACTIVE_NAME: "msedge", FAKE_ACTIVE_PID: "4242", FAKE_IDLE_MS: "1000" },
    state: "away",
    probe: "powershell",
  },
  {
    name: "WSL powershell.exe fails",
    platform: "linux",
    env: WSL,
    programs: ["powershell.exe"],
    fake: {},
    state: "unknown",
    probe: "none",
  },
  {
    name: "Windows terminal is an ancestor",
    platform: "win32",
    env: {},
    programs: ["powershell.exe"],
    fake: {
      FAKE_ACTIVE_PID: "700",
      FAKE_IDLE_MS: "1000",
      FAKE_PARENTS: `${SELF}:800,800:700,700:4`,
    },
    state: "present",
    probe: "powershell",
  },
  {
    name: "Windows other window in front",
    platform: "win32",
    env: {},
    programs: ["powershell.exe"],
    fake: {
      FAKE_ACTIVE_PID: "701",
      FAKE_IDLE_MS: "1000",
      FAKE_PARENTS: `${SELF}:800,800:700,700:4`,
    },
    state: "away",
    probe: "powershell",
  },
];

describe("probePresence with fake probe programs", () => {
  it.each(cases)("$name: $state by $probe", async (c) => {
    const fakes = fakeProbes(c.programs, { ps: PS });
    const presence = await probePresence({
      env: { ...fakes.env, ...c.env, ...c.fake },
      pid: process.pid,
      idleSeconds: 300,
      signal: AbortSignal.timeout(20_000),
      timeoutMs: SLOW_FAKES_MS,
      platform: c.platform,
    });
    expect({ state: presence.state, probe: presence.probe }).toEqual({
      state: c.state,
      probe: c.probe,
    });
    expect(presence.readings.map((r) => r.probe).length).toBeGreaterThan(0);
    for (const reading of presence.readings) expect(reading.detail).not.toBe("");
  });

  it("runs each program with an argument array and no shell", async () => {
    const fakes = fakeProbes(["powershell.exe"]);
    await probePresence({
      env: { ...fakes.env, ...WSL, FAKE_IDLE_MS: "5" },
      pid: process.pid,
      idleSeconds: 300,
      signal: AbortSignal.timeout(20_000),
      timeoutMs: SLOW_FAKES_MS,
      platform: "linux",
    });
    const [call] = fakes.calls();
    expect(call?.program).toBe("powershell.exe");
    expect(call?.args.slice(0, 5)).toEqual([
      "-NoProfile",
      "-NonInteractive",
      "-ExecutionPolicy",
      "Bypass",
      "-Command",
    ]);
    expect(call?.args[5]).toContain("GetLastInputInfo");
  });

  it("a program that hangs is cut off and answers unknown", async () => {
    const fakes = fakeProbes([]);
    const { symlinkSync, writeFileSync, chmodSync } = await import("node:fs");
    const hang = `${fakes.dir}/hang.cjs`;
    writeFileSync(hang, "setTimeout(() => {}, 60000);\n");
    writeFileSync(
      `${fakes.dir}/xprintidle`,
      `#!/usr/bin/env node\nrequire(${JSON.stringify(hang)});\n`,
    );
    chmodSync(`${fakes.dir}/xprintidle`, 0o755);
    symlinkSync(`${fakes.dir}/xprintidle`, `${fakes.dir}/xdotool`);
    const started = Date.now();
    const presence = await probePresence({
      env: { ...fakes.env, ...X11 },
      pid: process.pid,
      idleSeconds: 300,
      signal: AbortSignal.timeout(20_000),
      timeoutMs: 2000,
      platform: "linux",
    });
    expect(presence.state).toBe("unknown");
    expect(presence.readings.find((r) => r.probe === "xprintidle")?.detail).toContain("timed out");
    // Cut off by the per-program timeout (2 s for xdotool then xprop), not by the 20 s signal.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe("planProbes", () => {
  it.each([
    ["linux", { DISPLAY: ":0" }, ["xdotool", "xprintidle"]],
    [
      "linux",
      { DISPLAY: ":0", TMUX: "/tmp/s,1,0", TMUX_PANE: "%1" },
      ["tmux", "xdotool", "xprintidle"],
    ],
    [
      "linux",
      { DISPLAY: ":0", XDG_CURRENT_DESKTOP: "ubuntu:GNOME" },
      ["xdotool", "xprintidle", "gdbus"],
    ],
    ["linux", { WAYLAND_DISPLAY: "w", SWAYSOCK: "s" }, ["swaymsg"]],
    ["linux", { WAYLAND_DISPLAY: "w", HYPRLAND_INSTANCE_SIGNATURE: "h" }, ["hyprctl"]],
    ["linux", { WSL_DISTRO_NAME: "Ubuntu", DISPLAY: ":0" }, ["powershell"]],
    ["linux", {}, []],
    ["darwin", {}, ["lsappinfo", "ioreg"]],
    ["win32", {}, ["powershell"]],
  ] as const)("%s %j → %j", (platform, env, names) => {
    expect(planProbes(platform, env)).toEqual(names);
  });
});

describe("decide", () => {
  it("prefers a desktop idle time over tmux's key activity", () => {
    const answer = decide(
      [
        { probe: "tmux", focused: true, idleSeconds: 900, detail: "pane active", ms: 1 },
        { probe: "xprintidle", idleSeconds: 4, detail: "idle 4 s", ms: 1 },
      ],
      300,
    );
    expect(answer).toMatchObject({ state: "present", probe: "tmux", idleSeconds: 4 });
  });

  it("nothing to ask is unknown, which notifies", () => {
    expect(decide([], 300)).toMatchObject({ state: "unknown", probe: "none" });
  });
});
