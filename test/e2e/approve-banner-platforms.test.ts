// Issue 42 item 4 on macOS and Windows, SIMULATED on Linux as the click-to-focus tests are: a
// preload makes the built binary believe it runs there, and fake programs log their argv and
// print what the real ones print for a press (terminal-notifier's -json answer, the toast
// script's key on stdout). What is proven is what approve hands them and how it reads their
// answer; that macOS and Windows show the buttons and answer so is not (docs/approve.md says so).
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decisionJson } from "../../src/approve/decision.js";
import { fakeBin, type FakeProgram } from "../helpers/fake-bin.js";
import { machineEnv, packageCopy, type FakeMachine } from "../helpers/fake-platform.js";
import { fixture, ROOT, runBin, tempHome } from "../helpers/run-bin.js";
import { writeApproveKey } from "../helpers/telegram-approve.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";

const TOKEN = "123456789:AAbannerPlatformsTestToken_0123";
const CHAT = 828282;
const MAC: FakeMachine = { platform: "darwin", arch: "x64", rosetta: false };
const WINDOWS: FakeMachine = { platform: "win32", arch: "x64" };

// One approve of a package copy on `machine`, the phone a local Bot API.
async function approveOn(
  machine: FakeMachine,
  programs: FakeProgram[],
  env: Record<string, string>,
  input = fixture("claude-code/PermissionRequest.json"),
) {
  const bin = fakeBin(programs, { env });
  const pkg = packageCopy("fake");
  // The phone is asked over HTTP: the copy needs the real undici beside node-notifier.
  symlinkSync(join(ROOT, "node_modules", "undici"), join(pkg.dir, "node_modules", "undici"));
  const bot = await startFakeTelegram({ token: TOKEN });
  const home = tempHome({ ...bin.env, ...machineEnv(machine) });
  home.writeConfig({
    sinks: {
      phone: { type: "chat", service: "telegram", botToken: TOKEN, chatId: CHAT, apiUrl: bot.url },
    },
    approveWhen: "always",
    approveSeconds: 30,
  });
  writeApproveKey(home, "e".repeat(64));
  const running = runBin(["approve"], {
    bin: pkg.bin,
    input,
    env: home.env,
    killAfterMs: 60_000,
  });
  return { bin, bot, home, running };
}

describe.runIf(process.platform === "linux")("approve from the banner, simulated", () => {
  it("macOS: terminal-notifier's Allow answers, and the phone's buttons go", async () => {
    const pressed = JSON.stringify({ activationType: "actionClicked", activationValue: "Allow" });
    const run = await approveOn(MAC, ["osascript"], {
      FAKE_BIN_STDOUT_terminal_notifier: pressed,
    });
    const result = await run.running;
    expect({ code: result.code, stdout: result.stdout }).toEqual({
      code: 0,
      stdout: `${decisionJson({ decision: "allow" })}\n`,
    });
    const [notifier] = run.bin.calls().filter((c) => c.program === "terminal-notifier");
    expect(notifier?.args).toEqual([
      "-title",
      "Claude Code asks to use Bash",
      "-message",
      expect.stringMatching(/^Bash: /) as string,
      "-actions",
      "Allow,Deny",
      "-group",
      expect.stringMatching(/^hook-notify-approve-[0-9a-f]{12}$/) as string,
      "-timeout",
      expect.stringMatching(/^\d+$/) as string,
      "-json",
    ]);
    const line = run.home.logLines().find((l) => l.event === "PermissionRequest");
    expect(line?.approval).toMatchObject({
      result: "allowed",
      answeredBy: "desktop",
      program: "terminal-notifier",
      withdrawn: { where: "phone", how: "Telegram message edited, its buttons gone" },
    });
    expect(run.bot.messages[0]?.reply_markup).toBeUndefined();
  });

  it("macOS: a click on the banner's body is no answer (the phone still decides)", async () => {
    const clicked = JSON.stringify({ activationType: "contentsClicked" });
    const run = await approveOn(MAC, ["osascript"], {
      FAKE_BIN_STDOUT_terminal_notifier: clicked,
    });
    const message = await run.bot.waitForMessage();
    await waitForCall(run.bin, "terminal-notifier");
    run.bot.press(message, "Deny");
    const result = await run.running;
    expect(result.stdout).toBe(`${decisionJson({ decision: "deny" })}\n`);
    const line = run.home.logLines().find((l) => l.event === "PermissionRequest");
    expect(line?.approval).toMatchObject({ answeredBy: "phone", via: "telegram" });
  });

  it("Windows: the toast's Deny answers; its buttons' keys are fixed in the script", async () => {
    const run = await approveOn(WINDOWS, ["powershell.exe"], {
      FAKE_BIN_STDOUT_powershell_exe: "hn-deny\r\n",
    });
    const result = await run.running;
    expect(result.stdout).toBe(`${decisionJson({ decision: "deny" })}\n`);
    const [toast] = run.bin.calls().filter((c) => c.program === "powershell.exe");
    expect(toast?.env).toMatchObject({
      HOOK_NOTIFY_ASK: "1",
      HOOK_NOTIFY_TITLE: "Claude Code asks to use Bash",
      HOOK_NOTIFY_FOCUS_SECONDS: expect.stringMatching(/^\d+$/) as string,
    });
    const script = Buffer.from(toast?.args.at(-1) ?? "", "base64").toString("utf16le");
    expect(script).toContain("$keys = @('hn-allow', 'hn-deny'); $labels = @('Allow', 'Deny')");
    expect(toast?.env).not.toHaveProperty("HOOK_NOTIFY_OPTIONS");
    const line = run.home.logLines().find((l) => l.event === "PermissionRequest");
    expect(line?.approval).toMatchObject({
      result: "denied",
      answeredBy: "desktop",
      program: "powershell.exe",
    });
  });

  it("Windows: the phone answers first; the toast's script is stopped", async () => {
    const run = await approveOn(WINDOWS, ["powershell.exe"], { FAKE_BIN_SLEEP_MS: "60000" });
    const message = await run.bot.waitForMessage();
    await waitForCall(run.bin, "powershell.exe");
    run.bot.press(message, "Allow");
    const result = await run.running;
    expect(result.stdout).toBe(`${decisionJson({ decision: "allow" })}\n`);
    const line = run.home.logLines().find((l) => l.event === "PermissionRequest");
    expect(line?.approval).toMatchObject({
      answeredBy: "phone",
      withdrawn: { where: "desktop", how: expect.stringMatching(/script was stopped/) as string },
    });
  });
});

// An AskUserQuestion's PreToolUse input (Claude Code 2.1.332) with these option labels.
function questionInput(labels: string[]): string {
  const options = labels.map((label) => ({ label, description: "" }));
  return JSON.stringify({
    session_id: "5f0c2c7e-8d51-4d0e-9a4a-0f3b8b0f9e11",
    cwd: "/home/dev/projects/shop-api",
    hook_event_name: "PreToolUse",
    tool_name: "AskUserQuestion",
    tool_input: { questions: [{ question: "Which database?", options, multiSelect: false }] },
    tool_use_id: "toolu_01",
  });
}

const chose = (labels: string[], label: string) => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    updatedInput: {
      questions: [
        {
          question: "Which database?",
          options: labels.map((l) => ({ label: l, description: "" })),
          multiSelect: false,
        },
      ],
      answers: { "Which database?": label },
    },
  },
});

describe.runIf(process.platform === "linux")(
  "a question's options on the banner, simulated",
  () => {
    const LABELS = ["SQLite", "Postgres, 16", "MySQL"];

    it("macOS: one action per option (a comma, the list's separator, made a space); option 2 answers", async () => {
      const pressed = JSON.stringify({
        activationType: "actionClicked",
        activationValue: "Postgres  16",
      });
      const run = await approveOn(
        MAC,
        ["osascript"],
        { FAKE_BIN_STDOUT_terminal_notifier: pressed },
        questionInput(LABELS),
      );
      const result = await run.running;
      expect(JSON.parse(result.stdout)).toEqual(chose(LABELS, "Postgres, 16"));
      const [notifier] = run.bin.calls().filter((c) => c.program === "terminal-notifier");
      expect(notifier?.args.slice(0, 6)).toEqual([
        "-title",
        "Claude Code asks you a question",
        "-message",
        "Which database?",
        "-actions",
        "SQLite,Postgres  16,MySQL",
      ]);
      const line = run.home.logLines().find((l) => l.event === "PreToolUse");
      expect(line?.approval).toMatchObject({
        chosen: "Postgres, 16",
        answeredBy: "desktop",
        program: "terminal-notifier",
      });
    });

    it("Windows: the labels travel in HOOK_NOTIFY_OPTIONS; the toast's hn-option-3 answers, Allow is no answer", async () => {
      const run = await approveOn(
        WINDOWS,
        ["powershell.exe"],
        { FAKE_BIN_STDOUT_powershell_exe: "hn-allow\r\nhn-option-3\r\n" },
        questionInput(LABELS),
      );
      const result = await run.running;
      expect(JSON.parse(result.stdout)).toEqual(chose(LABELS, "MySQL"));
      const [toast] = run.bin.calls().filter((c) => c.program === "powershell.exe");
      expect(toast?.env).toMatchObject({
        HOOK_NOTIFY_ASK: "1",
        HOOK_NOTIFY_OPTIONS: "SQLite\nPostgres, 16\nMySQL",
      });
      const line = run.home.logLines().find((l) => l.event === "PreToolUse");
      expect(line?.approval).toMatchObject({ chosen: "MySQL", program: "powershell.exe" });
    });
  },
);

async function waitForCall(bin: ReturnType<typeof fakeBin>, program: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (bin.calls().some((c) => c.program === program)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${program} did not start in 30 s`);
}
