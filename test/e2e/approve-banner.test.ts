// Issue 42 item 4: a permission request answered from the Linux desktop banner. The built
// `hook-notify approve` asks the phone (a local Bot API, or a local ntfy) and shows the same
// question with Allow and Deny buttons through hook-notify's own D-Bus client on a private session bus
// (dbusmock's notification daemon, with actions); the daemon's ActionInvoked for the pressed
// button, followed over D-Bus by the bus's listener as a click-to-focus is, answers the request
// exactly as the phone's press would. Whichever answers first, the other is told: the phone's
// message loses its buttons and says "on the desktop", or the banner is closed
// (CloseNotification).
import { describe, expect, it } from "vitest";
import { decisionJson } from "../../src/approve/decision.js";
import {
  notificationDaemonTools,
  startNotificationDaemon,
} from "../helpers/notification-daemon.js";
import { startFakeNtfy } from "../helpers/ntfy-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";
import { writeApproveKey } from "../helpers/telegram-approve.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";
import { waitUntil } from "../helpers/wait-until.js";

const TOKEN = "123456789:AAbannerApproveTestToken_01234567";
const CHAT = 818181;

// The built approve with Claude Code's captured request, its key written first.
function approving(home: ReturnType<typeof tempHome>) {
  writeApproveKey(home, "d".repeat(64));
  return runBin(["approve"], {
    input: fixture("claude-code/PermissionRequest.json"),
    env: home.env,
    killAfterMs: 60_000,
  });
}

async function withTelegram() {
  const daemon = await startNotificationDaemon(["body", "actions"]);
  const bot = await startFakeTelegram({ token: TOKEN });
  const home = tempHome({ PATH: process.env.PATH, ...daemon.env });
  home.writeConfig({
    sinks: {
      phone: { type: "chat", service: "telegram", botToken: TOKEN, chatId: CHAT, apiUrl: bot.url },
    },
    approveWhen: "always",
    approveSeconds: 30,
  });
  const running = approving(home);
  return { daemon, bot, home, running };
}

describe.runIf(process.platform === "linux" && notificationDaemonTools().available)(
  "approve from the desktop banner (built binary, its D-Bus client, dbusmock)",
  () => {
    it.each(["allow", "deny"] as const)(
      "the banner's %s, pressed the moment it shows, answers; the phone's buttons go",
      async (decision) => {
        const { daemon, bot, home, running } = await withTelegram();
        const message = await bot.waitForMessage();
        const [banner] = await daemon.waitForCalls(1, 20_000);
        expect(banner?.summary).toBe("Claude Code asks to use Bash");
        // Once, at once: approve may not follow the banner's id yet; the listener keeps the
        // press for it (dbusmock numbers its banners from 1).
        await daemon.invokeAction(1, `hn-${decision}`);
        const result = await running;
        expect({ code: result.code, stdout: result.stdout }).toEqual({
          code: 0,
          stdout: `${decisionJson({ decision })}\n`,
        });
        const word = decision === "allow" ? "✅ Allowed" : "⛔ Denied";
        expect(message.text).toMatch(
          new RegExp(`^${word} on the desktop at \\d\\d:\\d\\d:\\d\\d UTC\\.\\n\\n`),
        );
        expect(message.reply_markup).toBeUndefined();
        const line = home.logLines().find((l) => l.event === "PermissionRequest");
        expect(line?.approval).toMatchObject({
          result: decision === "allow" ? "allowed" : "denied",
          answeredBy: "desktop",
          withdrawn: { where: "phone", how: "Telegram message edited, its buttons gone" },
        });
      },
    );

    it("the phone answers first: the banner is closed over D-Bus", async () => {
      const { daemon, bot, home, running } = await withTelegram();
      const message = await bot.waitForMessage();
      await daemon.waitForCalls(1, 20_000);
      bot.press(message, "Allow");
      const result = await running;
      expect(result.stdout).toBe(`${decisionJson({ decision: "allow" })}\n`);
      expect(await daemon.closes()).toEqual([1]);
      const line = home.logLines().find((l) => l.event === "PermissionRequest");
      expect(line?.approval).toMatchObject({
        answeredBy: "phone",
        withdrawn: { where: "desktop", how: expect.stringMatching(/banner 1 closed$/) as string },
      });
    });

    it("ntfy: the banner's answer replaces the phone's message (same sequence id, no buttons)", async () => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const ntfy = await startFakeNtfy({ token: "tk_bannerntfytoken0123456789" });
      const home = tempHome({ PATH: process.env.PATH, ...daemon.env });
      home.writeConfig({
        sinks: {
          phone: {
            type: "chat",
            service: "ntfy",
            url: `${ntfy.url}/hn-requests`,
            token: "tk_bannerntfytoken0123456789",
          },
        },
        approveReplyTopic: "hn-reply-banner0123456789abcdefghij",
        approveWhen: "always",
        approveSeconds: 30,
      });
      const running = approving(home);
      const asked = await ntfy.waitForMessage("hn-requests");
      await daemon.waitForCalls(1, 20_000);
      await daemon.invokeAction(1, "hn-allow");
      const result = await running;
      expect(result.stdout).toBe(`${decisionJson({ decision: "allow" })}\n`);
      await waitUntil(() => ntfy.messages.filter((m) => m.topic === "hn-requests").length === 2);
      const update = ntfy.messages.filter((m) => m.topic === "hn-requests")[1];
      expect(asked.sequence_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(update).toMatchObject({ sequence_id: asked.sequence_id });
      expect(update?.message).toMatch(/^✅ Allowed on the desktop at /);
      expect(update?.actions).toBeUndefined();
    });
  },
);
