// Issue 42: an MCP server's form (Claude Code's Elicitation) and a blocked action's "Let it retry"
// (PermissionDenied) answered from the phone, through the built binary against the local Bot API
// and ntfy. Each choice is a signed button bound to this request, this chat and its deadline, used
// once; the answer goes back as Claude Code 2.1.332 takes it. A press from another chat, a forged,
// replayed or late one, a reply, or a form the phone cannot fill prints nothing: the client's own
// form shows, or (PermissionDenied) nothing is retried.
import { describe, expect, it } from "vitest";
import { pressButton, startFakeNtfy } from "../helpers/ntfy-server.js";
import { runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import {
  CHAT,
  NTFY_REPLY_TOPIC,
  pressAsStrangers,
  setUpNtfyPhone,
  setUpTelegram,
  TOKEN,
  type Approval,
} from "../helpers/telegram-approve.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";

const SESSION = "5f0c2c7e-8d51-4d0e-9a4a-0f3b8b0f9e11";
const TARGET = {
  type: "string",
  title: "Target",
  oneOf: [
    { const: "staging", title: "Staging" },
    { const: "production", title: "Production" },
    { const: "canary", title: "Canary" },
  ],
};

// An Elicitation input as Claude Code 2.1.332 builds it (executeElicitationHooks).
function formInput(properties: Record<string, unknown> = { target: TARGET }, extra = {}): string {
  return JSON.stringify({
    session_id: SESSION,
    transcript_path: "/tmp/t.jsonl",
    cwd: "/home/dev/projects/shop-api",
    permission_mode: "default",
    hook_event_name: "Elicitation",
    mcp_server_name: "deployer",
    message: "Where should this deploy go?",
    mode: "form",
    requested_schema: { type: "object", properties, required: Object.keys(properties) },
    ...extra,
  });
}

// A PermissionDenied input as 2.1.332 builds it (executePermissionDeniedHooks).
const DENIED = JSON.stringify({
  session_id: SESSION,
  transcript_path: "/tmp/t.jsonl",
  cwd: "/home/dev/projects/shop-api",
  permission_mode: "auto",
  hook_event_name: "PermissionDenied",
  tool_name: "Bash",
  tool_input: { command: "git push --force origin main" },
  tool_use_id: "toolu_01",
  reason: "A force push to main rewrites shared history.",
});

function ask(home: TempHome, input: string, args: string[] = []) {
  return runBin(["approve", "--client", "claude-code", ...args], {
    input,
    env: home.env,
    killAfterMs: 60_000,
  });
}

function logged(home: TempHome, event: string): (Approval & { error?: { message: string } })[] {
  return home
    .logLines()
    .filter((line) => line.event === event)
    .map((line) => ({
      ...(line.approval as Approval),
      ...(line.error ? { error: line.error as { message: string } } : {}),
    }));
}

const accepted = (content: Record<string, unknown>) => ({
  hookSpecificOutput: { hookEventName: "Elicitation", action: "accept", content },
});
const RETRY = { hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true } };

describe("approve answers an MCP form (Elicitation) through Telegram", () => {
  it("one button per choice; another chat's, a forged press and a reply do nothing; Production is accepted", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const running = ask(home, formInput());
    const message = await bot.waitForMessage();
    expect(message.text).toMatch(
      /^Claude Code: the MCP server deployer asks you\nWhere should this deploy go\? \(Target\)\n1\. Staging\n/,
    );
    const buttons = message.reply_markup!.inline_keyboard.flat();
    expect(buttons.map((b) => b.text)).toEqual(["Staging", "Production", "Canary"]);
    pressAsStrangers(bot, message, "Staging");
    bot.reply(message, "staging please");
    bot.press(message, "Production", { userId: 5151 });
    const result = await running;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual(accepted({ target: "production" }));
    const [one] = logged(home, "Elicitation");
    expect(one).toMatchObject({ result: "answered", chosen: "Production", via: "telegram" });
    expect(one!.rejected.map((r) => r.reason)).toEqual(["other-chat", "forged", "other-message"]);
    const log = await runBin(["--no-color", "log"], { env: home.env });
    expect(log.stdout).toContain('answered "Production" from the phone via telegram (user 5151)');
  }, 60_000);

  it("a replayed press and one after the deadline print nothing for the next form", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const first = ask(home, formInput());
    const one = await bot.waitForMessage(1);
    const stagingOne = one.reply_markup!.inline_keyboard.flat()[0]!.callback_data!;
    bot.press(one, "Staging");
    expect(JSON.parse((await first).stdout)).toEqual(accepted({ target: "staging" }));
    // Nobody answers the second within its 2 s (--timeout 7 less the 5 s margin).
    expect((await ask(home, formInput(), ["--timeout", "7"])).stdout).toBe("");
    const two = await bot.waitForMessage(2);
    const third = ask(home, formInput());
    const three = await bot.waitForMessage(3);
    bot.pressData(stagingOne, CHAT, one.message_id);
    bot.press(two, "Canary");
    bot.press(three, "Canary");
    expect(JSON.parse((await third).stdout)).toEqual(accepted({ target: "canary" }));
    const runs = logged(home, "Elicitation");
    expect(runs.map((a) => a.result)).toEqual(["answered", "terminal", "answered"]);
    expect(runs[2]!.rejected.map((r) => r.reason)).toEqual(["replay", "expired"]);
  }, 90_000);

  it("a form the phone cannot fill: nothing sent, nothing printed, the log says why", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const inputs = [
      formInput({ target: TARGET, note: { type: "string" } }),
      formInput({ mail: { type: "string", format: "email" } }),
      formInput({ replicas: { type: "integer" } }),
      formInput({ target: TARGET }, { mode: "url", url: "https://example.test/consent" }),
    ];
    for (const input of inputs) {
      const result = await ask(home, input);
      expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    }
    expect(bot.calls.filter((c) => c.method === "sendMessage")).toHaveLength(0);
    const why = home.logLines().map((line) => (line.error as { message: string }).message);
    expect(why).toEqual([
      expect.stringMatching(/^Elicitation: a form of 2 fields.*the client's own form shows\.$/),
      expect.stringMatching(/^Elicitation: a string field with a format/),
      expect.stringMatching(/^Elicitation: a "integer" field/),
      expect.stringMatching(/^Elicitation: a "url" elicitation/),
    ]);
  }, 60_000);
});

describe("approve answers an MCP form's text field with a Telegram reply", () => {
  it("another chat's reply and a press do nothing; the reply is made inert and accepted", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const note = { note: { type: "string", title: "Note", maxLength: 40 } };
    const running = ask(home, formInput(note));
    const message = await bot.waitForMessage();
    expect(message.text).toContain(
      "Where should this deploy go? (Note) Reply to this message with your answer (1 to 40 characters).",
    );
    expect(message.reply_markup).toBeUndefined();
    bot.reply(message, "from another chat", { chatId: 777, userId: 777 });
    bot.reply(message, "ship it\u001b[31m on\nfriday\u202e", { userId: 5151 });
    const result = await running;
    expect(JSON.parse(result.stdout)).toEqual(accepted({ note: "ship it on friday" }));
    expect(message.text).toMatch(/^✅ Answered with your reply from this chat at /);
    const [one] = logged(home, "Elicitation");
    expect(one).toMatchObject({ result: "answered", chosen: "ship it on friday", user: 5151 });
    expect(one!.answer).toBeUndefined();
    expect(one!.rejected.map((r) => r.reason)).toEqual(["other-chat"]);
  }, 60_000);

  it("a reply longer than the field allows prints nothing; ntfy is not asked a text field", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const note = { note: { type: "string", maxLength: 5 } };
    const running = ask(home, formInput(note));
    const message = await bot.waitForMessage();
    bot.reply(message, "much too long");
    expect((await running).stdout).toBe("");
    expect(logged(home, "Elicitation")[0]).toMatchObject({ fallback: "reply-does-not-fit" });
    expect(message.text).toMatch(/^⚠ Not sent: the reply does not fit/);
    const token = "tk_approveformstext0123456789";
    const ntfy = await startFakeNtfy({ token });
    const other = setUpNtfyPhone(ntfy.url, token);
    expect((await ask(other, formInput(note))).stdout).toBe("");
    expect(ntfy.messages).toHaveLength(0);
    expect(logged(other, "Elicitation")[0]!.error!.message).toMatch(/ntfy's buttons carry no text/);
  }, 60_000);
});

describe('approve offers "Let it retry" for a blocked action (PermissionDenied) through Telegram', () => {
  it("one button; another chat's and a forged press do nothing; the press lets it retry", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot, { approveSeconds: 120 });
    const running = ask(home, DENIED);
    const message = await bot.waitForMessage();
    expect(message.text).toMatch(/^Claude Code: auto mode blocked Bash\nAuto mode blocked it: /);
    expect(message.text).toContain("command (28 characters): git push --force origin main");
    // Without --timeout the wait is short (auto mode waits meanwhile), whatever approveSeconds.
    const seconds = Number(/Choose within (\d+) s/.exec(message.text)?.[1]);
    expect(seconds).toBeLessThanOrEqual(30);
    const buttons = message.reply_markup!.inline_keyboard.flat();
    expect(buttons.map((b) => b.text)).toEqual(["Let it retry"]);
    pressAsStrangers(bot, message, "Let it retry");
    bot.press(message, "Let it retry");
    const result = await running;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual(RETRY);
    const [one] = logged(home, "PermissionDenied");
    expect(one).toMatchObject({ result: "answered", chosen: "Let it retry", tool: "Bash" });
    expect(one!.rejected.map((r) => r.reason)).toEqual(["other-chat", "forged"]);
  }, 60_000);

  it("no phone configured: nothing printed, and the log names the event", async () => {
    const home = tempHome();
    const result = await ask(home, DENIED, ["--timeout", "35"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    expect(home.logLines().map((line) => line.event)).toEqual(["PermissionDenied"]);
  }, 60_000);

  it("no answer in time: nothing printed, nothing retried", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const result = await ask(home, DENIED, ["--timeout", "7"]);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    expect(logged(home, "PermissionDenied")[0]).toMatchObject({ result: "terminal" });
    // Nothing is asked at a terminal after a block: log says no retry, not "terminal asked".
    const log = await runBin(["--no-color", "log"], { env: home.env });
    expect(log.stdout).toContain("no retry: no answer from the phone (");
    expect(log.stdout).not.toContain("terminal asked");
  }, 60_000);
});

describe("approve answers a form and a retry through ntfy", () => {
  it("a Yes/No form and the retry button; a forged answer on the reply topic does nothing", async () => {
    const token = "tk_approveforms0123456789";
    const ntfy = await startFakeNtfy({ token });
    const home = setUpNtfyPhone(ntfy.url, token);
    const confirm = { confirm: { type: "boolean", title: "Confirm", description: "Deploy now" } };
    const form = ask(home, formInput(confirm));
    const asked = await ntfy.waitForMessage("requests");
    expect(asked.title).toBe("Claude Code: the MCP server deployer asks you");
    expect(asked.actions?.map((a) => a.label)).toEqual(["Yes", "No"]);
    expect(await pressButton(asked, "No")).toBe(200);
    expect(JSON.parse((await form).stdout)).toEqual(accepted({ confirm: false }));
    const retry = ask(home, DENIED);
    const blocked = await ntfy.waitForMessage("requests", 2);
    expect(blocked.actions?.map((a) => a.label)).toEqual(["Let it retry"]);
    const body = JSON.parse(blocked.actions![0]!.body!) as Record<string, unknown>;
    const forged = JSON.stringify({ ...body, mac: "A".repeat(43) });
    await fetch(`${ntfy.url}/${NTFY_REPLY_TOPIC}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: forged,
    });
    expect(await pressButton(blocked, "Let it retry")).toBe(200);
    expect(JSON.parse((await retry).stdout)).toEqual(RETRY);
    expect(logged(home, "Elicitation")[0]).toMatchObject({ chosen: "No", via: "ntfy" });
    const [denied] = logged(home, "PermissionDenied");
    expect(denied).toMatchObject({ chosen: "Let it retry", via: "ntfy" });
    expect(denied!.rejected.map((r) => r.reason)).toEqual(["forged"]);
  }, 60_000);
});
