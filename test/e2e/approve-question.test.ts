// Issue 42: Claude Code's AskUserQuestion answered from the phone, through the built binary against
// the local Bot API and ntfy. The PreToolUse input's one question goes out with one signed button
// per option; the chosen label comes back as updatedInput.answers with the input otherwise whole.
// A forged, replayed, other-chat or expired press, or a question the phone cannot show whole,
// prints nothing: the terminal asks as before.
import { describe, expect, it } from "vitest";
import { pressButton, startFakeNtfy } from "../helpers/ntfy-server.js";
import { runBin, type TempHome } from "../helpers/run-bin.js";
import {
  CHAT,
  pressAsStrangers,
  setUpNtfyPhone,
  setUpTelegram,
  TOKEN,
  type Approval,
} from "../helpers/telegram-approve.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";
import { OPTIONS, QUESTION, questionInput } from "../helpers/ask-question.js";

function ask(home: TempHome, input = questionInput(), args: string[] = []) {
  return runBin(["approve", "--client", "claude-code", ...args], {
    input,
    env: home.env,
    killAfterMs: 60_000,
  });
}

// The question runs' log lines, oldest first.
function questions(home: TempHome): (Approval & { error?: { message: string } })[] {
  return home
    .logLines()
    .filter((line) => line.event === "PreToolUse")
    .map((line) => ({
      ...(line.approval as Approval),
      ...(line.error ? { error: line.error as { message: string } } : {}),
    }));
}

const answered = (label: string) => ({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    updatedInput: {
      questions: [{ question: QUESTION, header: "Database", options: OPTIONS, multiSelect: false }],
      answers: { [QUESTION]: label },
    },
  },
});

describe("approve answers AskUserQuestion through Telegram (local Bot API)", () => {
  it("one button per option; another chat's, a forged press and a reply do nothing; option 2 answers", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const running = ask(home);
    const message = await bot.waitForMessage();
    expect(message.text).toMatch(
      /^Claude Code asks you a question\nWhich database should we use\?/,
    );
    expect(message.text).toContain("1. SQLite: A file, no server\n2. PostgreSQL: The team's usual");
    expect(message.text).not.toContain("Reply to this message");
    const buttons = message.reply_markup!.inline_keyboard.flat();
    expect(buttons.map((b) => b.text)).toEqual(["SQLite", "PostgreSQL", "MySQL"]);
    // Signed like Allow and Deny: the option's digit in place of a/s/d.
    expect(buttons[1]!.callback_data).toMatch(/^hn1\.2\.[A-Za-z0-9_-]{16}\.[0-9a-z]+\.[\w-]{20}$/);
    pressAsStrangers(bot, message, "SQLite");
    bot.reply(message, "MySQL please");
    bot.press(message, "PostgreSQL", { userId: 5151 });
    const result = await running;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual(answered("PostgreSQL"));
    expect(message.text).toMatch(/^✅ Answered: PostgreSQL from this chat at /);
    const [logged] = questions(home);
    expect(logged).toMatchObject({ result: "answered", chosen: "PostgreSQL", answer: "option-2" });
    expect(logged!.rejected.map((r) => r.reason)).toEqual([
      "other-chat",
      "forged",
      "other-message",
    ]);
    const log = await runBin(["--no-color", "log"], { env: home.env });
    expect(log.stdout).toContain('answered "PostgreSQL" from the phone via telegram (user 5151)');
  }, 60_000);

  it("a replayed press and one after the deadline print nothing for the next question", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const first = ask(home);
    const one = await bot.waitForMessage(1);
    const sqliteOne = one.reply_markup!.inline_keyboard.flat()[0]!.callback_data!;
    bot.press(one, "SQLite");
    expect(JSON.parse((await first).stdout)).toEqual(answered("SQLite"));
    // Nobody answers the second within its 2 s (--timeout 7 less the 5 s margin).
    expect((await ask(home, questionInput(), ["--timeout", "7"])).stdout).toBe("");
    const two = await bot.waitForMessage(2);
    const third = ask(home);
    const three = await bot.waitForMessage(3);
    bot.pressData(sqliteOne, CHAT, one.message_id);
    bot.press(two, "MySQL");
    bot.press(three, "MySQL");
    expect(JSON.parse((await third).stdout)).toEqual(answered("MySQL"));
    const logged = questions(home);
    expect(logged.map((a) => a.result)).toEqual(["answered", "terminal", "answered"]);
    expect(logged[2]!.rejected.map((r) => r.reason)).toEqual(["replay", "expired"]);
    expect(two.text).toMatch(/^⌛ Expired/);
  }, 90_000);

  it("several questions or several answers at once: nothing sent, nothing printed, the log says why", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const two = JSON.parse(questionInput()) as { tool_input: { questions: unknown[] } };
    two.tool_input.questions.push({ question: "And the cache?", options: OPTIONS });
    const multi = JSON.parse(questionInput()) as {
      tool_input: { questions: { multiSelect: boolean }[] };
    };
    multi.tool_input.questions[0]!.multiSelect = true;
    for (const input of [two, multi]) {
      const result = await ask(home, JSON.stringify(input));
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    }
    expect(bot.calls.filter((c) => c.method === "sendMessage")).toHaveLength(0);
    const logged = home.logLines().map((line) => (line.error as { message: string }).message);
    expect(logged).toEqual([
      expect.stringMatching(/asks 2 questions at once.*the terminal asks/),
      expect.stringMatching(/multiSelect.*the terminal asks/),
    ]);
  }, 60_000);
});

describe("approve answers AskUserQuestion through ntfy", () => {
  it("three options, three buttons, the second pressed; four options stay at the terminal", async () => {
    const token = "tk_approvequestion0123456789";
    const ntfy = await startFakeNtfy({ token });
    const home = setUpNtfyPhone(ntfy.url, token);
    const running = ask(home);
    const request = await ntfy.waitForMessage("requests");
    expect(request.title).toBe("Claude Code asks you a question");
    expect(request.actions?.map((a) => a.label)).toEqual(["SQLite", "PostgreSQL", "MySQL"]);
    expect(await pressButton(request, "PostgreSQL")).toBe(200);
    expect(JSON.parse((await running).stdout)).toEqual(answered("PostgreSQL"));
    expect(questions(home)[0]).toMatchObject({ chosen: "PostgreSQL", via: "ntfy" });
    // A fourth option has no button: no partial choice is sent, the terminal asks.
    const four = [...OPTIONS, { label: "DuckDB", description: "" }];
    const result = await ask(home, questionInput(four));
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    expect(questions(home)[1]!.error!.message).toMatch(
      /4 options and ntfy shows at most 3 buttons; the terminal asks/,
    );
    expect(ntfy.messages.filter((m) => m.topic === "requests")).toHaveLength(1);
  }, 60_000);
});
