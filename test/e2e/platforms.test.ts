// macOS, Windows and WSL simulated on Linux, through the built binary in hook mode: a preload
// fakes process.platform, process.arch / os.arch(), os.release() and Rosetta 2; fake programs on
// PATH (and a fake node-notifier vendor folder) log their argv and environment.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeBin, type FakeCall, type FakeProgram } from "../helpers/fake-bin.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import type { NotifyCall } from "../helpers/notification-daemon.js";
import {
  machineEnv,
  packageCopy,
  WSL_RELEASE,
  type FakeMachine,
  type VendoredNotifier,
} from "../helpers/fake-platform.js";
import { runBin, tempHome } from "../helpers/run-bin.js";

const isLinux = process.platform === "linux";
const POWERSHELL_APP_ID =
  "{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe";
const OSASCRIPT_SOURCE = [
  "-e",
  "on run argv",
  "-e",
  "display notification (item -2 of argv) with title (item -3 of argv) subtitle (item -1 of argv)",
  "-e",
  "end run",
];

interface Run {
  calls: FakeCall[];
  /** Banners sent to the Linux notification service (an in-process D-Bus on every run). */
  banners: NotifyCall[];
  /** The package copy's shipped sounds. */
  sounds: string;
  outcomes: Record<string, unknown>[];
  stdout: string;
  code: number | null;
  ms: number;
}

interface RunOptions {
  programs: FakeProgram[];
  notifier?: VendoredNotifier;
  event?: Record<string, unknown>;
  env?: Record<string, string>;
  /** How long the hook watches a started program; long, so a fast exit is always seen. */
  settleMs?: number;
}

const STOP = {
  hook_event_name: "Stop",
  session_id: "platform-1",
  cwd: "/home/dev/projects/shop-api",
  last_assistant_message: "All 214 tests pass.",
};

// One hook run of the built binary (a package copy with the fake vendor folder) on `machine`.
async function hook(machine: FakeMachine, options: RunOptions): Promise<Run> {
  const bin = fakeBin(options.programs, { env: options.env ?? {} });
  const bus = await fakeNotificationBus();
  const pkg = packageCopy(options.notifier ?? "fake");
  const home = tempHome({
    ...bin.env,
    ...bus.env,
    ...machineEnv(machine),
    HOOK_NOTIFY_SETTLE_MS: String(options.settleMs ?? 8000),
  });
  const result = await runBin(["--client", "claude-code", "--timeout", "15"], {
    bin: pkg.bin,
    input: JSON.stringify(options.event ?? STOP),
    env: home.env,
  });
  const [line] = home.logLines();
  const outcomes = (line?.outcomes ?? []) as Record<string, unknown>[];
  return {
    calls: bin.calls(),
    banners: bus.calls(),
    sounds: join(pkg.dir, "assets", "sounds"),
    outcomes,
    stdout: result.stdout,
    code: result.code,
    ms: result.ms,
  };
}

function outcome(run: Run, sink: string): Record<string, unknown> | undefined {
  return run.outcomes.find((o) => o.sink === sink);
}

function decoded(call: FakeCall | undefined): string {
  const encoded = call?.args[call.args.indexOf("-EncodedCommand") + 1] ?? "";
  return Buffer.from(encoded, "base64").toString("utf16le");
}

const MAC_PROGRAMS: FakeProgram[] = ["osascript", "afplay", "paplay"];
const WINDOWS_PROGRAMS: FakeProgram[] = ["powershell.exe", "wslpath", "paplay"];

describe.runIf(isLinux)("macOS, simulated: desktop and sound in hook mode", () => {
  it("arm64 without Rosetta 2: osascript with the text as argv, afplay with the file", async () => {
    const run = await hook(
      { platform: "darwin", arch: "arm64", rosetta: false },
      {
        programs: MAC_PROGRAMS,
      },
    );
    expect(run).toMatchObject({ code: 0, stdout: "" });
    const title = "shop-api · Claude finished";
    expect(run.calls.map((c) => [c.program, c.args])).toEqual(
      expect.arrayContaining([
        ["osascript", [...OSASCRIPT_SOURCE, "--", title, "All 214 tests pass.", ""]],
        ["afplay", [join(run.sounds, "done.wav")]],
      ]),
    );
    expect(run.calls.map((c) => c.program).sort()).toEqual(["afplay", "osascript"]);
    expect(outcome(run, "desktop")).toMatchObject({ ok: true, via: "osascript" });
    expect(outcome(run, "desktop")?.started).toBeUndefined();
    expect(outcome(run, "sound")).toMatchObject({ ok: true });
  });

  it.each<[string, FakeMachine]>([
    ["arm64 with Rosetta 2", { platform: "darwin", arch: "arm64", rosetta: true }],
    ["x86_64", { platform: "darwin", arch: "x64", rosetta: false }],
  ])("%s: the vendored terminal-notifier, and not osascript", async (_name, machine) => {
    const run = await hook(machine, { programs: MAC_PROGRAMS });
    const notifier = run.calls.filter((c) => c.program === "terminal-notifier");
    expect(notifier.map((c) => c.args)).toEqual([
      ["-title", "shop-api · Claude finished", "-message", "All 214 tests pass."],
    ]);
    expect(run.calls.map((c) => c.program).sort()).toEqual(["afplay", "terminal-notifier"]);
    expect(outcome(run, "desktop")).toMatchObject({ ok: true, via: "terminal-notifier" });
  });

  it("terminal-notifier that exits 1: osascript shows it, and the log says why", async () => {
    const run = await hook(
      { platform: "darwin", arch: "arm64", rosetta: true },
      { programs: MAC_PROGRAMS, env: { FAKE_BIN_EXIT_terminal_notifier: "1" } },
    );
    expect(run.calls.map((c) => c.program).sort()).toEqual([
      "afplay",
      "osascript",
      "terminal-notifier",
    ]);
    expect(outcome(run, "desktop")?.ok).toBe(true);
    expect(outcome(run, "desktop")?.via).toMatch(
      /^osascript \(terminal-notifier failed: .* exited with code 1/,
    );
  });

  it.each<VendoredNotifier>(["missing", "not-executable"])(
    "a vendored terminal-notifier that is %s is not started: osascript",
    async (notifier) => {
      const run = await hook(
        { platform: "darwin", arch: "x64" },
        { programs: MAC_PROGRAMS, notifier },
      );
      expect(run.calls.map((c) => c.program).sort()).toEqual(["afplay", "osascript"]);
      expect(outcome(run, "desktop")).toMatchObject({ ok: true, via: "osascript" });
    },
  );

  it("osascript that fails is logged as failed with its fix, never ok", async () => {
    const run = await hook(
      { platform: "darwin", arch: "arm64", rosetta: false },
      {
        programs: MAC_PROGRAMS,
        env: { FAKE_BIN_EXIT_osascript: "1", FAKE_BIN_EXIT_afplay: "2" },
      },
    );
    expect(outcome(run, "desktop")).toMatchObject({ ok: false, code: "SINK_FAILED" });
    expect(outcome(run, "desktop")?.error).toMatch(/exited with code 1\. .*Script Editor/);
    expect(outcome(run, "sound")).toMatchObject({ ok: false, code: "SINK_FAILED" });
    expect(run).toMatchObject({ code: 0, stdout: "" });
  });

  it("no osascript and no afplay on PATH: SINK_UNAVAILABLE for both", async () => {
    const run = await hook(
      { platform: "darwin", arch: "arm64", rosetta: false },
      {
        programs: [],
      },
    );
    expect(run.banners).toEqual([]);
    expect(outcome(run, "desktop")).toMatchObject({ ok: false, code: "SINK_UNAVAILABLE" });
    expect(outcome(run, "sound")).toMatchObject({ ok: false, code: "SINK_UNAVAILABLE" });
  });
});

describe.runIf(isLinux)("Windows and WSL, simulated: desktop and sound in hook mode", () => {
  it("Windows: a hidden PowerShell toast, text only in its environment; SoundPlayer with the path in HOOK_NOTIFY_SOUND", async () => {
    const run = await hook({ platform: "win32", arch: "x64" }, { programs: WINDOWS_PROGRAMS });
    expect(run).toMatchObject({ code: 0, stdout: "" });
    const [toast, player] = ["Toast", "SoundPlayer"].map((kind) =>
      run.calls.find((c) => c.program === "powershell.exe" && decoded(c).includes(kind)),
    );
    for (const call of [toast, player]) {
      expect(call?.args.slice(0, 4)).toEqual([
        "-NoProfile",
        "-NonInteractive",
        "-NoLogo",
        "-EncodedCommand",
      ]);
      expect(call?.args).toHaveLength(5);
    }
    expect(toast?.env).toMatchObject({
      HOOK_NOTIFY_TITLE: "shop-api · Claude finished",
      HOOK_NOTIFY_BODY: "All 214 tests pass.",
      HOOK_NOTIFY_APP_ID: POWERSHELL_APP_ID,
      HOOK_NOTIFY_LONG: "0",
    });
    expect(decoded(toast)).toContain("CreateTextNode($env:HOOK_NOTIFY_TITLE)");
    expect(decoded(toast)).toContain("CreateToastNotifier($env:HOOK_NOTIFY_APP_ID)");
    expect(decoded(player)).toBe(
      "(New-Object System.Media.SoundPlayer $env:HOOK_NOTIFY_SOUND).PlaySync()",
    );
    expect(player?.env.HOOK_NOTIFY_SOUND).toBe(join(run.sounds, "done.wav"));
    expect(toast?.env.WSLENV).toBeUndefined();
    expect(run.banners).toEqual([]);
    expect(outcome(run, "desktop")).toMatchObject({ ok: true, via: "powershell.exe" });
  });

  it("WSL: the same toast through interop, named in WSLENV; the sound path converted by wslpath -w", async () => {
    const run = await hook(
      { platform: "linux", arch: "x64", release: WSL_RELEASE },
      {
        programs: WINDOWS_PROGRAMS,
        env: {
          WSLENV: "USERPROFILE/p",
          FAKE_BIN_STDOUT_wslpath: "\\\\wsl.localhost\\Ubuntu{arg1}\n",
        },
      },
    );
    const programs = run.calls.map((c) => c.program);
    expect(run.banners).toEqual([]);
    expect(programs).not.toContain("paplay");
    const wslpath = run.calls.find((c) => c.program === "wslpath");
    expect(wslpath?.args).toEqual(["-w", join(run.sounds, "done.wav")]);
    const toast = run.calls.find((c) => decoded(c).includes("Toast"));
    const player = run.calls.find((c) => decoded(c).includes("SoundPlayer"));
    expect(toast?.env.WSLENV?.split(":").sort()).toEqual(
      [
        "HOOK_NOTIFY_APP_ID",
        "HOOK_NOTIFY_BODY",
        "HOOK_NOTIFY_LONG",
        "HOOK_NOTIFY_TITLE",
        "USERPROFILE/p",
      ].sort(),
    );
    expect(player?.env).toMatchObject({
      HOOK_NOTIFY_SOUND: `\\\\wsl.localhost\\Ubuntu${join(run.sounds, "done.wav")}`,
      WSLENV: "USERPROFILE/p:HOOK_NOTIFY_SOUND",
    });
    expect(outcome(run, "desktop")).toMatchObject({ ok: true, via: "powershell.exe" });
    expect(outcome(run, "sound")).toMatchObject({ ok: true });
  });

  it("WSL without powershell.exe reachable: the D-Bus banner and a Linux player", async () => {
    const run = await hook(
      { platform: "linux", arch: "x64", release: WSL_RELEASE },
      {
        programs: ["paplay"],
        env: { DISPLAY: ":0" },
      },
    );
    expect(run.calls.map((c) => c.program)).toEqual(["paplay"]);
    expect(run.banners).toHaveLength(1);
  });

  it("a toast that fails (exit 1) is logged failed with its fix; a failure stays on screen longer", async () => {
    const run = await hook(
      { platform: "win32", arch: "x64" },
      {
        programs: WINDOWS_PROGRAMS,
        event: {
          hook_event_name: "SessionEnd",
          session_id: "platform-2",
          cwd: STOP.cwd,
          reason: "other",
        },
        env: { FAKE_BIN_EXIT: "1" },
      },
    );
    expect(outcome(run, "desktop")).toMatchObject({ ok: false, code: "SINK_FAILED" });
    expect(outcome(run, "desktop")?.error).toMatch(/exited with code 1\. Run hook-notify doctor/);
    expect(outcome(run, "sound")).toMatchObject({ ok: false, code: "SINK_FAILED" });
    const toast = run.calls.find((c) => decoded(c).includes("Toast"));
    expect(toast?.env.HOOK_NOTIFY_LONG).toBe("1");
  });

  it("Windows without powershell.exe: SINK_UNAVAILABLE, nothing started", async () => {
    const run = await hook({ platform: "win32", arch: "x64" }, { programs: [] });
    expect(run.banners).toEqual([]);
    expect(outcome(run, "desktop")).toMatchObject({ ok: false, code: "SINK_UNAVAILABLE" });
    expect(outcome(run, "sound")).toMatchObject({ ok: false, code: "SINK_UNAVAILABLE" });
    expect(run.calls).toEqual([]);
  });
});

describe.runIf(isLinux)("a program still running when the hook goes on", () => {
  it("is logged as started, not delivered, and the hook does not wait for it", async () => {
    const run = await hook(
      { platform: "win32", arch: "x64" },
      {
        programs: WINDOWS_PROGRAMS,
        env: { FAKE_BIN_SLEEP_MS: "30000" },
        settleMs: 200,
      },
    );
    expect(outcome(run, "desktop")).toMatchObject({ ok: true, started: true });
    expect(outcome(run, "sound")).toMatchObject({ ok: true, started: true });
    expect(run.ms).toBeLessThan(25_000);
    expect(run).toMatchObject({ code: 0, stdout: "" });
  });
});

/** A cwd basename, so a title, that runs `touch $CANARY` in a shell. */
const HOSTILE_PROJECT = '-rf "; touch $CANARY; echo " $(touch $CANARY) `touch $CANARY`';

// Text that would run `touch <canary>` (or a PowerShell command) if any program evaluated it.
function hostileEvent(canary: string): Record<string, unknown> {
  return {
    hook_event_name: "Stop",
    session_id: "platform-hostile",
    cwd: `/home/dev/${HOSTILE_PROJECT}`,
    last_assistant_message: [
      `-x $(touch ${canary}) \`touch ${canary}\` '; touch ${canary}; '`,
      `$env:CANARY; New-Item $env:CANARY; "quoted" (paren) {brace} <tag> & calc`,
      `\\ back\\slash $HOME !! *`,
    ].join("\n"),
  };
}

describe.runIf(isLinux)("hostile text reaches every program as inert data", () => {
  it.each<[string, FakeMachine]>([
    ["macOS with terminal-notifier", { platform: "darwin", arch: "x64" }],
    ["macOS with osascript", { platform: "darwin", arch: "arm64", rosetta: false }],
    ["Windows", { platform: "win32", arch: "x64" }],
    ["WSL", { platform: "linux", arch: "x64", release: WSL_RELEASE }],
  ])("%s", async (_name, machine) => {
    const canary = join(tempHome().dir, "canary");
    const event = hostileEvent(canary);
    const run = await hook(machine, {
      programs: [...MAC_PROGRAMS, ...WINDOWS_PROGRAMS.filter((p) => p !== "paplay")],
      event,
      env: { FAKE_BIN_STDOUT_wslpath: "C:\\sounds\\x.wav\n", CANARY: canary },
    });
    const title = `${HOSTILE_PROJECT} · Claude finished`;
    // The body keeps the message on one line (format.ts folds line breaks).
    const message = String(event.last_assistant_message).replaceAll("\n", " ");
    const desktop = run.calls.find(
      (c) => ["osascript", "terminal-notifier"].includes(c.program) || decoded(c).includes("Toast"),
    );
    expect(desktop).toBeDefined();
    if (desktop?.program === "osascript") {
      expect(desktop.args.slice(0, 7)).toEqual([...OSASCRIPT_SOURCE, "--"]);
      expect(desktop.args[7]).toBe(title);
      expect(desktop.args[8]?.startsWith(message)).toBe(true);
    } else if (desktop?.program === "terminal-notifier") {
      // A leading "-" gets the backslash terminal-notifier drops (else NSUserDefaults reads an option).
      expect(desktop.args[1]).toBe(`\\${title}`);
      expect(desktop.args[3]?.startsWith(`\\${message}`)).toBe(true);
    } else {
      expect(desktop?.env.HOOK_NOTIFY_TITLE).toBe(title);
      expect(desktop?.env.HOOK_NOTIFY_BODY?.startsWith(message)).toBe(true);
      for (const call of run.calls) expect(decoded(call)).not.toContain("touch");
    }
    expect(outcome(run, "desktop")).toMatchObject({ ok: true });
    expect(existsSync(canary)).toBe(false);
    expect(run).toMatchObject({ code: 0, stdout: "" });
  });
});
