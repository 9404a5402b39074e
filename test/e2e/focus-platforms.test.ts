// Click to focus on macOS and Windows, simulated on Linux as test/e2e/platforms.test.ts does: a
// preload fakes the platform, fake programs log their argv and environment. What is proven here
// is what hook-notify hands the programs (terminal-notifier's -activate, the toast script and its
// variables); that macOS and Windows then bring the terminal back is not (README says so).
import { describe, expect, it } from "vitest";
import { fakeBin, type FakeCall, type FakeProgram } from "../helpers/fake-bin.js";
import { machineEnv, packageCopy, type FakeMachine } from "../helpers/fake-platform.js";
import { runBin, tempHome } from "../helpers/run-bin.js";
import { ITERM_SELECT_LINES } from "../../src/sinks/desktop-macos-click.js";

const STOP = {
  hook_event_name: "Stop",
  session_id: "focus-1",
  cwd: "/home/dev/projects/shop-api",
  last_assistant_message: "All 214 tests pass.",
};
const WT_SESSION = "3f1d2c4b-1a2b-4c3d-9e8f-0123456789ab";
const ITERM_UUID = "6D6A4F2C-8B1E-4C3A-9F0D-2E7B5A1C9D44";
const CLICKED = JSON.stringify({ activationType: "contentsClicked" });

// One hook-mode run (so the worker runs the event) of a package copy on `machine`.
async function hook(machine: FakeMachine, programs: FakeProgram[], env: Record<string, string>) {
  const bin = fakeBin(programs);
  const pkg = packageCopy("fake");
  const home = tempHome({
    ...bin.env,
    ...machineEnv(machine),
    HOOK_NOTIFY_SETTLE_MS: "8000",
    ...env,
  });
  home.writeConfig({ sinks: { desktop: { type: "desktop" } } });
  const result = await runBin(["--client", "claude-code", "--timeout", "15"], {
    bin: pkg.bin,
    input: JSON.stringify(STOP),
    env: home.env,
  });
  expect(result).toMatchObject({ code: 0, stdout: "" });
  // The worker's click step ends after the hook: its last program (osascript) has finished.
  if (env.FAKE_BIN_STDOUT_terminal_notifier === CLICKED) await osascriptDone(() => bin.calls());
  const lines = home.logLines();
  const line = lines.find((l) => l.outcomes !== undefined);
  const outcomes = (line?.outcomes ?? []) as Record<string, unknown>[];
  const receipts = lines.filter((l) => l.outbox === "receipt");
  return {
    calls: bin.calls(),
    desktop: outcomes.find((o) => o.sink === "desktop"),
    line,
    receipts,
  };
}

async function osascriptDone(calls: () => FakeCall[]): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (calls().some((c) => c.program === "osascript" && c.finished)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("osascript did not run in 60 s");
}

function decoded(call: FakeCall | undefined): string {
  const encoded = call?.args[call.args.indexOf("-EncodedCommand") + 1] ?? "";
  return Buffer.from(encoded, "base64").toString("utf16le");
}

const MAC: FakeMachine = { platform: "darwin", arch: "x64", rosetta: false };
const WINDOWS: FakeMachine = { platform: "win32", arch: "x64" };

describe.runIf(process.platform === "linux")("click to focus, simulated", () => {
  it("macOS: terminal-notifier activates the terminal app TERM_PROGRAM names", async () => {
    const run = await hook(MAC, ["osascript"], { TERM_PROGRAM: "iTerm.app" });
    expect(run.line?.via).toBe("worker");
    const notifier = run.calls.filter((c) => c.program === "terminal-notifier");
    expect(notifier.map((c) => c.args)).toEqual([
      [
        "-title",
        "shop-api · Claude finished",
        "-message",
        "All 214 tests pass.",
        "-activate",
        "com.googlecode.iterm2",
      ],
    ]);
    expect(run.desktop).toMatchObject({
      ok: true,
      via: "terminal-notifier",
      action: "click: activates com.googlecode.iterm2 (a tmux pane is not selected on macOS)",
    });
  }, 120_000);

  it("macOS iTerm2: the worker follows terminal-notifier; its click selects the session whose unique id ITERM_SESSION_ID carries, passed to osascript as an argument", async () => {
    const run = await hook(MAC, ["osascript"], {
      TERM_PROGRAM: "iTerm.app",
      ITERM_SESSION_ID: `w0t2p1:${ITERM_UUID}`,
      FAKE_BIN_STDOUT_terminal_notifier: CLICKED,
    });
    expect(run.line?.via).toBe("worker");
    const notifier = run.calls.find((c) => c.program === "terminal-notifier");
    expect(notifier?.args.slice(-5)).toEqual([
      "-activate",
      "com.googlecode.iterm2",
      "-timeout",
      "600",
      "-json",
    ]);
    const osascript = run.calls.find((c) => c.program === "osascript");
    expect(osascript?.args).toEqual([
      ...ITERM_SELECT_LINES.flatMap((l) => ["-e", l]),
      "--",
      ITERM_UUID,
    ]);
    expect(run.desktop).toMatchObject({
      ok: true,
      via: "terminal-notifier",
      action: `click: selects iTerm2 session ${ITERM_UUID}`,
    });
    expect(run.receipts).toMatchObject([
      { sink: "desktop", state: "clicked", reason: `iTerm2 session ${ITERM_UUID} selected` },
    ]);
  }, 120_000);

  it("macOS iTerm2: an ITERM_SESSION_ID that is not one, or one inside tmux, is never used", async () => {
    for (const env of [
      { ITERM_SESSION_ID: `w0t0p0:${ITERM_UUID}" & do shell script "touch /tmp/x` },
      {
        ITERM_SESSION_ID: `w0t0p0:${ITERM_UUID}`,
        TMUX: "/tmp/tmux-0/default,1,0",
        TMUX_PANE: "%1",
      },
    ]) {
      const run = await hook(MAC, ["osascript"], { TERM_PROGRAM: "iTerm.app", ...env });
      const args = run.calls.find((c) => c.program === "terminal-notifier")?.args ?? [];
      expect(args).not.toContain("-timeout");
      expect(run.calls.some((c) => c.program === "osascript")).toBe(false);
      expect(run.desktop?.action).toBe(
        "click: activates com.googlecode.iterm2 (a tmux pane is not selected on macOS)",
      );
    }
  }, 120_000);

  it("macOS: a bundle id that is not one is never passed; osascript banners say they have no action", async () => {
    const junk = await hook(MAC, ["osascript"], { __CFBundleIdentifier: "-x; open /tmp" });
    const args = junk.calls.find((c) => c.program === "terminal-notifier")?.args ?? [];
    expect(args).not.toContain("-activate");
    expect(junk.desktop?.action).toMatch(/^none: the terminal app is not known/);
    const arm = await hook({ platform: "darwin", arch: "arm64", rosetta: false }, ["osascript"], {
      TERM_PROGRAM: "Apple_Terminal",
    });
    expect(arm.desktop).toMatchObject({
      via: "osascript",
      action: expect.stringMatching(/^none: .*Script Editor/) as unknown,
    });
  }, 120_000);

  it("Windows Terminal: the worker's toast waits (bounded) for Activated, then brings Windows Terminal to the front", async () => {
    const run = await hook(WINDOWS, ["powershell.exe"], { WT_SESSION });
    const toast = run.calls.find((c) => c.program === "powershell.exe");
    expect(toast?.env).toMatchObject({ HOOK_NOTIFY_FOCUS_SECONDS: "600" });
    expect(toast?.env.HOOK_NOTIFY_AGENT_PID).toMatch(/^\d+$/);
    const script = decoded(toast);
    expect(script).toContain("$focus = [int]$env:HOOK_NOTIFY_FOCUS_SECONDS");
    expect(script).toContain("-EventName Activated -SourceIdentifier HookNotifyActivated");
    expect(script).toContain("Wait-Event -Timeout $left");
    expect(script).toContain("[string]$got.SourceArgs[1].Reason -eq 'TimedOut'");
    expect(script).toContain("$id = [int]$env:HOOK_NOTIFY_AGENT_PID");
    expect(script).toContain("AppActivate($wt)");
    // No event text in the script: title and body stay in the environment.
    expect(script).not.toContain("shop-api");
    expect(run.desktop).toMatchObject({
      ok: true,
      via: "powershell.exe",
      action: "click: brings Windows Terminal to the front",
    });
  }, 120_000);

  it("Windows outside Windows Terminal: the toast does not wait, and the log says why", async () => {
    const run = await hook(WINDOWS, ["powershell.exe"], { WT_SESSION: "not-a-guid" });
    const toast = run.calls.find((c) => c.program === "powershell.exe");
    expect(toast?.env.HOOK_NOTIFY_FOCUS_SECONDS).toBeUndefined();
    expect(run.desktop?.action).toMatch(/^none: the agent does not run in Windows Terminal/);
  }, 120_000);
});
