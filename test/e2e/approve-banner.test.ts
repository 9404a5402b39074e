// Issue 42 item 4: a permission request answered from the Linux desktop banner. The built
// `hook-notify approve` asks the phone (a local Bot API) and shows the same question with Allow
// and Deny buttons through the real notify-send on a private session bus (dbusmock's notification
// daemon, with actions); the daemon's ActionInvoked for the pressed button, followed over D-Bus by
// the bus's listener as a click-to-focus is, answers the request exactly as the phone's press would.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decisionJson } from "../../src/approve/decision.js";
import {
  notificationDaemonTools,
  startNotificationDaemon,
} from "../helpers/notification-daemon.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";

const TOKEN = "123456789:AAbannerApproveTestToken_01234567";
const CHAT = 818181;

describe.runIf(process.platform === "linux" && notificationDaemonTools().available)(
  "approve from the desktop banner (built binary, real notify-send, dbusmock)",
  () => {
    it.each(["allow", "deny"] as const)("the banner's %s answers the request", async (decision) => {
      const daemon = await startNotificationDaemon(["body", "actions"]);
      const bot = await startFakeTelegram({ token: TOKEN });
      const home = tempHome({ PATH: process.env.PATH, ...daemon.env });
      home.writeConfig({
        sinks: {
          phone: {
            type: "chat",
            service: "telegram",
            botToken: TOKEN,
            chatId: CHAT,
            apiUrl: bot.url,
          },
        },
        approveWhen: "always",
        approveSeconds: 30,
      });
      const state = join(home.dir, "state", "hook-notify");
      mkdirSync(state, { recursive: true });
      writeFileSync(join(state, "approve.key"), `${"d".repeat(64)}\n`, { mode: 0o600 });
      chmodSync(join(state, "approve.key"), 0o600);
      const running = runBin(["approve"], {
        input: fixture("claude-code/PermissionRequest.json"),
        env: home.env,
        killAfterMs: 60_000,
      });
      await bot.waitForMessage();
      const [banner] = await daemon.waitForCalls(1, 20_000);
      expect(banner?.summary).toBe("Claude Code asks to use Bash");
      // dbusmock numbers its banners from 1. A press in the moment between the banner showing
      // and approve following it is not seen (as for a click-to-focus): press until answered.
      const run = { exited: false };
      void running.then(() => (run.exited = true));
      while (!run.exited) {
        await daemon.invokeAction(1, `hn-${decision}`);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const result = await running;
      expect({ code: result.code, stdout: result.stdout }).toEqual({
        code: 0,
        stdout: `${decisionJson({ decision })}\n`,
      });
      const line = home.logLines().find((l) => l.event === "PermissionRequest");
      expect(line?.approval).toMatchObject({
        result: decision === "allow" ? "allowed" : "denied",
        answeredBy: "desktop",
      });
    });
  },
);
