// Issue 38: the phone shows every argument of the tool input. An MCP tool called with a harmless
// `query` and the `sql` that acts: both reach the phone, through the ntfy and the Telegram
// stand-ins, and the log keeps the same text.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pressButton, startFakeNtfy } from "../helpers/ntfy-server.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";

const NTFY_TOKEN = "tk_approvetesttoken0123456789";
const BOT_TOKEN = "123456789:AAtelegramApproveTestToken_0123456";
const REQUESTS = "phone-requests";

function request(): string {
  const event = JSON.parse(fixture("claude-code/PermissionRequest.json")) as Record<
    string,
    unknown
  >;
  return JSON.stringify({
    ...event,
    tool_name: "mcp__db__execute",
    tool_input: { query: "status", sql: "DROP TABLE users" },
  });
}

function homeWith(phone: Record<string, unknown>, extra: Record<string, unknown> = {}): TempHome {
  const home = tempHome();
  home.writeConfig({ sinks: { phone }, approveWhen: "always", approveSeconds: 30, ...extra });
  const stateDir = join(home.dir, "state", "hook-notify");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, "approve.key"), `${"c".repeat(64)}\n`, { mode: 0o600 });
  chmodSync(join(stateDir, "approve.key"), 0o600);
  return home;
}

function loggedSummary(home: TempHome): string {
  const line = home.logLines().find((l) => l.event === "PermissionRequest");
  return String((line?.approval as { summary?: string } | undefined)?.summary);
}

describe("the phone shows every argument (built binary)", () => {
  it("ntfy: the message shows the query and the sql that would run", async () => {
    const ntfy = await startFakeNtfy({ token: NTFY_TOKEN });
    const home = homeWith(
      { type: "chat", service: "ntfy", url: `${ntfy.url}/${REQUESTS}`, token: NTFY_TOKEN },
      { approveReplyTopic: "hn-reply-0123456789abcdefghijklmn" },
    );
    const running = runBin(["approve", "--timeout", "60"], {
      input: request(),
      env: home.env,
      killAfterMs: 40_000,
    });
    const message = await ntfy.waitForMessage(REQUESTS);
    expect(message.message).toContain("query (6 characters): status");
    expect(message.message).toContain("sql (16 characters): DROP TABLE users");
    await pressButton(message, "Deny");
    expect((await running).code).toBe(0);
    expect(loggedSummary(home)).toContain("DROP TABLE users");
  });

  it("Telegram: the message shows the query and the sql that would run", async () => {
    const bot = await startFakeTelegram({ token: BOT_TOKEN });
    const home = homeWith({
      type: "chat",
      service: "telegram",
      botToken: BOT_TOKEN,
      chatId: 4242,
      apiUrl: bot.url,
    });
    const running = runBin(["approve", "--timeout", "60"], {
      input: request(),
      env: home.env,
      killAfterMs: 40_000,
    });
    const message = await bot.waitForMessage();
    expect(message.text).toContain("query (6 characters): status");
    expect(message.text).toContain("sql (16 characters): DROP TABLE users");
    bot.press(message, "Deny");
    expect((await running).code).toBe(0);
    expect(loggedSummary(home)).toContain("DROP TABLE users");
  }, 60_000);
});
