// `hook-notify approve` through a Telegram bot, run as Claude Code runs it (the built binary, the
// PermissionRequest fixture on stdin) against a local Bot API built from its documentation
// (test/helpers/telegram-server.ts). A press is the callback_query update a phone makes. Issue 25's
// done-when: an Allow press from the configured chat allows the request; a press from another
// chat, a replayed press and a press after the deadline do nothing but get logged.
import { describe, expect, it } from "vitest";
import { runBin } from "../helpers/run-bin.js";
import {
  approvals,
  approve,
  CHAT,
  KEY,
  reasons,
  setUpTelegram as setUp,
  TOKEN,
} from "../helpers/telegram-approve.js";
import { startFakeTelegram, type FakeTelegram } from "../helpers/telegram-server.js";

const ALLOW =
  '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n';

describe("hook-notify approve through Telegram (built binary, local Bot API)", () => {
  it("Allow pressed in the configured chat: allows, answers the press, edits the message", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUp(bot);
    const running = approve(home);
    const message = await bot.waitForMessage();
    // The buttons' data fits Telegram's 64 bytes; the keyboard is Allow and Deny, and the
    // fixture's suggestions (a folder, accept-edits mode) make Allow for this session.
    const buttons = message.reply_markup!.inline_keyboard.flat();
    expect(buttons.map((b) => b.text)).toEqual(["Allow", "Deny", "Allow for this session"]);
    for (const b of buttons) expect(Buffer.byteLength(b.callback_data!)).toBeLessThanOrEqual(64);
    expect(message.text).toContain("Claude Code asks to use Bash");
    const press = bot.press(message, "Allow");
    const result = await running;
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 0,
      stdout: ALLOW,
      stderr: "",
    });
    const answer = bot.calls.find((c) => c.method === "answerCallbackQuery");
    expect(answer?.body).toMatchObject({ callback_query_id: press });
    expect(answer?.status).toBe(200);
    // The outcome is on the message, and the buttons are gone.
    expect(message.text).toMatch(/^✅ Allowed from this chat at \d\d:\d\d:\d\d UTC\./);
    expect(message.reply_markup).toBeUndefined();
    expect(approvals(home)[0]).toMatchObject({ result: "allowed", rejected: [] });
    const log = JSON.stringify(home.logLines());
    for (const secret of [TOKEN, KEY]) expect(log).not.toContain(secret);
    // getUpdates asked for presses and messages (a reply denies with a reason), as a long poll.
    const poll = bot.calls.find((c) => c.method === "getUpdates");
    expect(poll?.body).toMatchObject({ allowed_updates: ["callback_query", "message"] });
    expect(poll?.body.timeout).toBeGreaterThan(0);
  }, 60_000);

  it("a press from another chat and a forged one do nothing but get logged; Deny then denies", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUp(bot);
    const running = approve(home);
    const message = await bot.waitForMessage();
    // The real Allow data, pressed from another chat (and by another user).
    bot.press(message, "Allow", { chatId: 777, userId: 777 });
    // Our chat, our request's shape, a MAC made without the key.
    const allow = message.reply_markup!.inline_keyboard.flat()[0]!.callback_data!;
    bot.pressData(`${allow.slice(0, -20)}${"A".repeat(20)}`, CHAT, message.message_id);
    bot.press(message, "Deny");
    const result = await running;
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      hookSpecificOutput: { decision: { behavior: "deny" } },
    });
    expect(reasons(approvals(home)[0])).toEqual(["other-chat", "forged"]);
    // Only the accepted press was answered.
    expect(bot.calls.filter((c) => c.method === "answerCallbackQuery")).toHaveLength(1);
  }, 60_000);

  it("a replayed press and a press after the deadline do nothing for the next request but get logged", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUp(bot);
    // First request: allowed.
    const first = approve(home);
    const one = await bot.waitForMessage(1);
    const allowOne = one.reply_markup!.inline_keyboard.flat()[0]!.callback_data!;
    bot.press(one, "Allow");
    expect((await first).stdout).toBe(ALLOW);
    // Second request: nobody answers within its 2 s (--timeout 7 less the 5 s margin).
    const second = await approve(home, ["--timeout", "7"]);
    expect(second.stdout).toBe("");
    const two = await bot.waitForMessage(2);
    // Third request: the first one's Allow again (a replay), the second's Allow (expired), then Deny.
    const third = approve(home);
    const three = await bot.waitForMessage(3);
    bot.pressData(allowOne, CHAT, one.message_id);
    bot.press(two, "Allow");
    bot.press(three, "Deny");
    const result = await third;
    expect(JSON.parse(result.stdout)).toMatchObject({
      hookSpecificOutput: { decision: { behavior: "deny" } },
    });
    const logged = approvals(home);
    expect(logged.map((a) => a.result)).toEqual(["allowed", "terminal", "denied"]);
    expect(logged[1]).toMatchObject({ fallback: "timeout" });
    expect(reasons(logged[2])).toEqual(["replay", "expired"]);
    // The late press was told so, and its message says it expired.
    expect(two.text).toMatch(/^⌛ Expired/);
    expect(two.reply_markup).toBeUndefined();
  }, 90_000);

  it("two approvals at once share the bot: each gets its own press, no 409 between them", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUp(bot);
    const a = approve(home);
    const b = approve(home);
    const [first, second] = [await bot.waitForMessage(1), await bot.waitForMessage(2)];
    // Pressed together: one getUpdates returns both, so the poller must pass the other's on.
    bot.press(first, "Deny");
    bot.press(second, "Allow");
    const results = await Promise.all([a, b]);
    const behaviours = results
      .map(
        (r) => JSON.parse(r.stdout) as { hookSpecificOutput: { decision: { behavior: string } } },
      )
      .map((d) => d.hookSpecificOutput.decision.behavior)
      .sort();
    expect(behaviours).toEqual(["allow", "deny"]);
    const logged = approvals(home);
    expect(logged.map((l) => l.result).sort()).toEqual(["allowed", "denied"]);
    // Each request got the press made on its own message.
    for (const [message, decision] of [
      [first, "denied"],
      [second, "allowed"],
    ] as const) {
      const id = logged.find((l) => message.text.includes(`Request ${l.request.slice(0, 8)}`));
      expect(id?.result).toBe(decision);
    }
    // A press meant for the other request may be seen by either poller, once or more, or never
    // (each getUpdates may bring only its own press): what is rejected is only ever that.
    expect(
      logged.flatMap((l) => reasons(l)).filter((reason) => reason !== "other-request"),
    ).toEqual([]);
    expect(bot.conflicts).toBe(0);
  }, 60_000);

  it("a webhook on the bot (getUpdates answers 409): nothing printed, the log says why", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    bot.webhook = "https://example.invalid/hook";
    const home = setUp(bot);
    const result = await approve(home);
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 0, stdout: "" });
    const [logged] = approvals(home);
    expect(logged).toMatchObject({ result: "terminal", fallback: "error" });
    expect(logged?.error?.message).toMatch(/409.*webhook is set, or another getUpdates poller/);
  }, 60_000);
});

describe("test --approve and doctor with a Telegram sink", () => {
  it("test --approve prints the verified answer of a press", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUp(bot);
    const running = runBin(["test", "--approve"], { env: home.env, killAfterMs: 60_000 });
    const message = await bot.waitForMessage();
    expect(message.text).toMatch(/^hook-notify test: allow Bash\?/);
    bot.press(message, "Allow");
    const result = await running;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/through phone \(telegram\)/);
    expect(result.stdout).toMatch(/Verified answer: allowed from the phone/);
  }, 60_000);

  it("doctor: passes with the bot answering, fails naming the fix when a webhook is set", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUp(bot);
    const approveCheck = async () => {
      const result = await runBin(["doctor", "--json"], { env: home.env, killAfterMs: 40_000 });
      const checks = JSON.parse(result.stdout) as {
        check: string;
        status: string;
        detail: string;
        fix?: string;
      }[];
      return checks.find((c) => c.check === "approve (phone)");
    };
    expect(await approveCheck()).toMatchObject({
      status: "ok",
      detail: expect.stringMatching(/no webhook; presses count from chat 424242 only/) as unknown,
    });
    bot.webhook = "https://example.invalid/hook";
    expect(await approveCheck()).toMatchObject({
      status: "fail",
      fix: expect.stringMatching(/deleteWebhook/) as unknown,
    });
    // doctor reads the webhook; it never takes the bot's updates.
    expect(bot.calls.filter((c) => c.method === "getUpdates")).toHaveLength(0);
  }, 60_000);
});

type Mode = { updates: FakeTelegram["updatesMode"] } | { send: FakeTelegram["sendMode"] };

const MODES: [string, Mode][] = [
  ["getUpdates never answered", { updates: "hang" }],
  ["getUpdates that trickles", { updates: "trickle" }],
  ["getUpdates that hangs up", { updates: "reset" }],
  ["sendMessage never answered", { send: "hang" }],
];

// Issue 25: with approveSeconds 8, approve ends within 8 s + 2 s, whatever the Bot API does.
describe("approve through Telegram ends at approveSeconds 8 (hostile local Bot API)", () => {
  for (const [args, limitMs] of [
    [[], 10_000],
    [["--timeout", "13"], 10_000],
  ] as const) {
    it(`${args.length === 0 ? "without" : "with"} --timeout: ends within 8 s + 2 s, the log says why`, async () => {
      const seen = await Promise.all(
        MODES.map(async ([name, mode]) => {
          const bot = await startFakeTelegram({ token: TOKEN });
          if ("updates" in mode) bot.updatesMode = mode.updates;
          else bot.sendMode = mode.send;
          const home = setUp(bot, { approveSeconds: 8 });
          const result = await approve(home, [...args]);
          const [logged] = approvals(home);
          return [
            name,
            {
              code: result.code,
              stdout: result.stdout,
              inTime: result.ms < limitMs ? "yes" : `no: ${Math.round(result.ms)} ms`,
              // The wait ended at the deadline, or (a hang-up) with the reason in the log.
              why:
                logged?.fallback === "timeout" ||
                /time was up|reach/.test(logged?.error?.message ?? "")
                  ? "said"
                  : JSON.stringify(logged),
              safetyNet: logged?.error?.code === "HOOK_DEADLINE",
            },
          ] as const;
        }),
      );
      const each = { code: 0, stdout: "", inTime: "yes", why: "said", safetyNet: false };
      expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(MODES.map(([n]) => [n, each])));
    }, 60_000);
  }
});
