// Issue 42 item 4, a question's options on the Linux desktop banner: the built `hook-notify
// approve` shows an AskUserQuestion's options (and a one-field MCP form's choice) as D-Bus Notify
// actions with fixed keys ("hn-option-<n>") and the labels made inert, on a private session bus
// (dbusmock's notification daemon). A press of option 2 on the banner prints exactly what the
// phone's press of option 2 prints; the phone is told. A press for another banner's id answers
// nothing; a question with more options than the banner shows is
// the phone's alone, and the log says so.
import { describe, expect, it } from "vitest";
import {
  notificationDaemonTools,
  startNotificationDaemon,
} from "../helpers/notification-daemon.js";
import { runBin, type TempHome } from "../helpers/run-bin.js";
import { setUpTelegram, TOKEN } from "../helpers/telegram-approve.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";
import { OPTIONS, QUESTION, questionInput } from "../helpers/ask-question.js";

// One approve of `input` on this bus (none: no desktop), the phone a local Bot API.
async function asking(input: string, bus?: { DBUS_SESSION_BUS_ADDRESS: string }) {
  const bot = await startFakeTelegram({ token: TOKEN });
  const home = setUpTelegram(bot);
  const env = bus === undefined ? home.env : { ...home.env, PATH: process.env.PATH, ...bus };
  const running = runBin(["approve", "--client", "claude-code"], {
    input,
    env,
    killAfterMs: 60_000,
  });
  return { bot, home, running };
}

function logged(home: TempHome, event: string): Record<string, unknown> | undefined {
  const line = home.logLines().find((l) => l.event === event);
  return line?.approval as Record<string, unknown> | undefined;
}

// The phone's press of `label`, with no banner: what the client is told then.
async function phoneAnswer(input: string, label: string): Promise<string> {
  const { bot, running } = await asking(input);
  bot.press(await bot.waitForMessage(), label);
  return (await running).stdout;
}

describe.runIf(process.platform === "linux" && notificationDaemonTools().available)(
  "a question's options on the desktop banner (built binary, its D-Bus client, dbusmock)",
  () => {
    it("option 2 pressed on the banner prints what the phone's option 2 prints; the phone is told", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const { bot, home, running } = await asking(questionInput(), daemon.env);
      const message = await bot.waitForMessage();
      const [banner] = await daemon.waitForCalls(1, 20_000);
      expect(banner).toMatchObject({
        summary: "Claude Code asks you a question",
        body: QUESTION,
        actions: ["hn-option-1", "SQLite", "hn-option-2", "PostgreSQL", "hn-option-3", "MySQL"],
      });
      // Another banner's press answers nothing (a key not offered: test/sinks/banner-answer).
      await daemon.invokeAction(7, "hn-option-1");
      await daemon.invokeAction(1, "hn-option-2");
      const result = await running;
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
      expect(result.stdout).toBe(await phoneAnswer(questionInput(), "PostgreSQL"));
      expect(JSON.parse(result.stdout)).toMatchObject({
        hookSpecificOutput: { updatedInput: { answers: { [QUESTION]: "PostgreSQL" } } },
      });
      expect(message.text).toMatch(
        /^✅ “PostgreSQL” chosen on the desktop at \d\d:\d\d:\d\d UTC\./,
      );
      expect(message.reply_markup).toBeUndefined();
      expect(logged(home, "PreToolUse")).toMatchObject({
        result: "answered",
        chosen: "PostgreSQL",
        answer: "option-2",
        answeredBy: "desktop",
        via: "desktop",
        withdrawn: { where: "phone", how: "Telegram message edited, its buttons gone" },
      });
      const log = await runBin(["--no-color", "log"], { env: home.env });
      expect(log.stdout).toContain('answered "PostgreSQL" on the desktop at');
    }, 60_000);

    it("labels reach the daemon inert and bounded; the phone's answer closes the banner", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const odd = [
        { label: "Yes\u001b[31m, red\u0007", description: "" },
        { label: `No ${"x".repeat(60)}`, description: "" },
      ];
      const { bot, home, running } = await asking(questionInput(odd), daemon.env);
      const message = await bot.waitForMessage();
      const [banner] = await daemon.waitForCalls(1, 20_000);
      const labels = banner!.actions.filter((_, index) => index % 2 === 1);
      expect(banner!.actions.filter((_, index) => index % 2 === 0)).toEqual([
        "hn-option-1",
        "hn-option-2",
      ]);
      expect(Array.from(labels[0]!).some((c) => c < " " || c === "\u007f")).toBe(false);
      expect(Array.from(labels[1]!)).toHaveLength(40);
      expect(labels[1]).toMatch(/…$/);
      bot.press(message, message.reply_markup!.inline_keyboard.flat()[0]!.text);
      const result = await running;
      expect(JSON.parse(result.stdout)).toMatchObject({
        hookSpecificOutput: { updatedInput: { answers: { [QUESTION]: odd[0]!.label } } },
      });
      expect(await daemon.closes()).toEqual([1]);
      expect(logged(home, "PreToolUse")).toMatchObject({
        answeredBy: "phone",
        withdrawn: { where: "desktop", how: expect.stringMatching(/banner 1 closed$/) as string },
      });
    }, 60_000);

    it("four options: no banner (it shows three), the log says so, the phone answers", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const four = [...OPTIONS, { label: "DuckDB", description: "" }];
      const { bot, home, running } = await asking(questionInput(four), daemon.env);
      bot.press(await bot.waitForMessage(), "DuckDB");
      const result = await running;
      expect(JSON.parse(result.stdout)).toMatchObject({
        hookSpecificOutput: { updatedInput: { answers: { [QUESTION]: "DuckDB" } } },
      });
      expect(await daemon.calls()).toEqual([]);
      expect(logged(home, "PreToolUse")).toMatchObject({
        answeredBy: "phone",
        banner:
          "the question has 4 options and this banner shows at most 3 buttons; the phone answers",
      });
    }, 60_000);

    it("an MCP form's one-field choice: the banner's option answers as the phone's would", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const form = JSON.stringify({
        session_id: "5f0c2c7e-8d51-4d0e-9a4a-0f3b8b0f9e11",
        transcript_path: "/tmp/t.jsonl",
        cwd: "/home/dev/projects/shop-api",
        hook_event_name: "Elicitation",
        mcp_server_name: "deployer",
        message: "Deploy now?",
        mode: "form",
        requested_schema: {
          type: "object",
          properties: { confirm: { type: "boolean" } },
          required: ["confirm"],
        },
      });
      const { bot, home, running } = await asking(form, daemon.env);
      await bot.waitForMessage();
      const [banner] = await daemon.waitForCalls(1, 20_000);
      expect(banner?.actions).toEqual(["hn-option-1", "Yes", "hn-option-2", "No"]);
      await daemon.invokeAction(1, "hn-option-2");
      const result = await running;
      expect(JSON.parse(result.stdout)).toEqual({
        hookSpecificOutput: {
          hookEventName: "Elicitation",
          action: "accept",
          content: { confirm: false },
        },
      });
      expect(logged(home, "Elicitation")).toMatchObject({ chosen: "No", answeredBy: "desktop" });
    }, 60_000);
  },
);
