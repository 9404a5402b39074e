// Issue 42: more answers than Allow and Deny, through the built binary against the local Bot API
// and ntfy. "Allow for this session" sends the request's own permission_suggestions back as
// session rules (Claude Code only); a Telegram reply to the request denies with its text as the
// reason, made inert and bounded, accepted only from the configured chat, for a live request,
// once. Every answer is logged with what, when, through which channel and (Telegram) who.
import { describe, expect, it } from "vitest";
import { pressButton, startFakeNtfy } from "../helpers/ntfy-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";
import {
  approvals,
  approve,
  reasons,
  setUpTelegram,
  TOKEN,
  writeApproveKey,
} from "../helpers/telegram-approve.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";

interface Decision {
  hookSpecificOutput: {
    hookEventName: string;
    decision: { behavior: string; message?: string; updatedPermissions?: unknown[] };
  };
}

const decisionOf = (stdout: string) => (JSON.parse(stdout) as Decision).hookSpecificOutput.decision;

// The captured fixture's suggestions (a folder and accept-edits mode), scoped to the session.
const SESSION_RULES = [
  { type: "addDirectories", directories: ["/home/dev/projects/shop-api"], destination: "session" },
  { type: "setMode", mode: "acceptEdits", destination: "session" },
];
const GRANT_WORDS = "work in /home/dev/projects/shop-api; accept file edits without asking";

describe("approve: Allow for this session and deny with a reason (local Bot API)", () => {
  it("Allow for this session: allow with the suggestions as session rules, logged with who and via", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const running = approve(home);
    const message = await bot.waitForMessage();
    expect(message.text).toContain(
      `Allow for this session: ${GRANT_WORDS}, until the session ends.`,
    );
    expect(message.text).toContain("Reply to this message to deny with a reason");
    bot.press(message, "Allow for this session", { userId: 5151 });
    const result = await running;
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
    expect(decisionOf(result.stdout)).toEqual({
      behavior: "allow",
      updatedPermissions: SESSION_RULES,
    });
    expect(message.text).toMatch(/^✅ Allowed for this session from this chat at /);
    expect(approvals(home)[0]).toMatchObject({
      result: "allowed",
      answer: "allow-session",
      granted: GRANT_WORDS,
      via: "telegram",
      user: 5151,
      answeredBy: "phone",
    });
    const log = await runBin(["--no-color", "log"], { env: home.env });
    expect(log.stdout).toContain(
      `allowed for this session (${GRANT_WORDS}) from the phone via telegram (user 5151) at`,
    );
  }, 60_000);

  it("a reply denies with its text, inert and bounded; another chat's, a stray or an empty reply does nothing", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const running = approve(home);
    const message = await bot.waitForMessage();
    bot.reply(message, "from a stranger: allow it", { chatId: 777, userId: 777 });
    bot.reply({ ...message, message_id: 9 }, "a reply to some other message");
    bot.reply(message, " \u0007\u200b ");
    const typed = `not on main\u001b[31m, use a branch\r\nthen test\u202e${"!".repeat(600)}`;
    bot.reply(message, typed, { userId: 6161 });
    const result = await running;
    expect(result.code).toBe(0);
    const decision = decisionOf(result.stdout);
    expect(decision.behavior).toBe("deny");
    const reason = `not on main, use a branch then test${"!".repeat(464)}…`;
    expect(decision.message).toBe(
      `The user denied this permission request from their phone (hook-notify) and said: ${reason}`,
    );
    const [logged] = approvals(home);
    expect(logged).toMatchObject({
      result: "denied",
      answer: "deny",
      reason,
      via: "telegram",
      user: 6161,
    });
    expect(reasons(logged)).toEqual(["other-chat", "other-message", "empty-reply"]);
    // No callback to answer: the request's message says what happened, its buttons gone.
    expect(message.text).toMatch(/^⛔ Denied with your reason from this chat at /);
    expect(message.reply_markup).toBeUndefined();
    expect(bot.calls.filter((c) => c.method === "answerCallbackQuery")).toHaveLength(0);
  }, 60_000);

  it("a reply to an answered request is a replay, one after its deadline expired: neither decides", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const first = approve(home);
    const one = await bot.waitForMessage(1);
    bot.reply(one, "no");
    expect(decisionOf((await first).stdout).behavior).toBe("deny");
    // Nobody answers the second within its 2 s (--timeout 7 less the 5 s margin).
    expect((await approve(home, ["--timeout", "7"])).stdout).toBe("");
    const two = await bot.waitForMessage(2);
    const third = approve(home);
    const three = await bot.waitForMessage(3);
    bot.reply(one, "no, again");
    bot.reply(two, "too late");
    bot.press(three, "Allow");
    expect(decisionOf((await third).stdout)).toEqual({ behavior: "allow" });
    const logged = approvals(home);
    expect(logged.map((a) => a.result)).toEqual(["denied", "terminal", "allowed"]);
    expect(reasons(logged[2])).toEqual(["replay", "expired"]);
    expect(two.text).toMatch(/^⌛ Expired/);
  }, 90_000);

  it("Codex: no Allow for this session (its schema fails closed on it); a reply's reason goes in its deny", async () => {
    const bot = await startFakeTelegram({ token: TOKEN });
    const home = setUpTelegram(bot);
    const running = approve(home, ["--client", "codex"], fixture("codex/PermissionRequest.json"));
    const message = await bot.waitForMessage();
    expect(message.reply_markup!.inline_keyboard.flat().map((b) => b.text)).toEqual([
      "Allow",
      "Deny",
    ]);
    bot.reply(message, "use the staging folder instead");
    const result = await running;
    expect(JSON.parse(result.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: {
          behavior: "deny",
          message:
            "The user denied this permission request from their phone (hook-notify) and said: use the staging folder instead",
        },
      },
    });
  }, 60_000);
});

describe("approve through ntfy: Allow for this session", () => {
  it("three buttons; the session press allows with the session rules, logged via ntfy", async () => {
    const token = "tk_approveanswers0123456789";
    const ntfy = await startFakeNtfy({ token });
    const home = tempHome();
    home.writeConfig({
      sinks: {
        phone: { type: "chat", service: "ntfy", url: `${ntfy.url}/requests`, token },
      },
      approveReplyTopic: "hn-reply-answers0123456789abcdefg",
      approveWhen: "always",
      approveSeconds: 10,
    });
    writeApproveKey(home);
    const running = approve(home);
    const request = await ntfy.waitForMessage("requests");
    expect(request.actions?.map((a) => a.label)).toEqual([
      "Allow",
      "Allow for this session",
      "Deny",
    ]);
    expect(request.message).toContain(`Allow for this session: ${GRANT_WORDS}`);
    // ntfy's buttons post fixed bodies: there is no reply to type a reason into.
    expect(request.message).not.toContain("Reply to this message");
    expect(await pressButton(request, "Allow for this session")).toBe(200);
    const result = await running;
    expect(decisionOf(result.stdout)).toEqual({
      behavior: "allow",
      updatedPermissions: SESSION_RULES,
    });
    expect(approvals(home)[0]).toMatchObject({ answer: "allow-session", via: "ntfy" });
  }, 60_000);
});
