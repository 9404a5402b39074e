import { existsSync } from "node:fs";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Notification } from "../../src/core/notification.js";
import type { ReceiptEvent } from "../../src/core/receipt.js";
import { desktop } from "../../src/sinks/desktop.js";
import { findProgram } from "../../src/sinks/find-program.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { canaryPath, sinkSender, tempDir } from "../helpers/sink-harness.js";
import {
  notificationDaemonTools,
  startNotificationDaemon,
  type NotifyCall,
} from "../helpers/notification-daemon.js";
import { sampleNotification, testDeps } from "../helpers/sample-notification.js";

const isLinux = process.platform === "linux";
const tools = notificationDaemonTools();

const stop = sampleNotification({
  event: "Stop",
  failure: false,
  level: "done",
  reason: undefined,
  title: "shop-api · Done",
  body: "Refactored the checkout; all 214 tests pass.",
});
const attention = sampleNotification({
  event: "Notification",
  failure: false,
  level: "attention",
  reason: undefined,
  title: "shop-api · Needs you",
  body: "Claude needs your permission to use Bash",
});
const failure = sampleNotification();
const { options, send } = sinkSender(desktop, "desk");

// The body as a daemon that reads markup (lists "body-markup", as both test daemons do) gets it.
const inert = (body: string): string =>
  body.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

// Text that runs `touch <canary>` if it is ever evaluated by a shell, in every way we know.
function hostileText(canary: string): { title: string; body: string } {
  return {
    title: `-rf "; touch ${canary}; echo " $(touch ${canary}) \`touch ${canary}\` 'it''s'`,
    body: [
      `"; touch $CANARY; echo "`,
      "$(touch $CANARY) `touch $CANARY` ${CANARY:+x}",
      `'single' "double" \\" back\\slash $HOME !! *`,
      "\u001b[31mred\u001b[0m --urgency=low",
    ].join("\n"),
  };
}

// node-notifier reads process.env (PATH, the bus, the shell's $CANARY), not Deps: set it here.
function setProcessEnv(vars: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(vars).map((key) => [key, process.env[key]]));
  Object.assign(process.env, vars);
  onTestFinished(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) Reflect.deleteProperty(process.env, key);
      else process.env[key] = value;
    }
  });
}

function realEnv(bus: { DBUS_SESSION_BUS_ADDRESS: string }): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", ...bus };
}

describe.runIf(isLinux && !tools.available && process.env.CI === "true")(
  "desktop sink test prerequisites",
  () => {
    it("has dbus-daemon, notify-send and python3-dbusmock installed in CI", () => {
      expect.fail(
        `missing: ${tools.missing.join(", ")}. Install with: apt-get install dbus libnotify-bin python3-dbusmock`,
      );
    });
  },
);

describe.runIf(isLinux && tools.available)("desktop sink with a real notification daemon", () => {
  it.each<[string, Notification, Pick<NotifyCall, "urgency" | "icon">]>([
    ["Stop (done) as low urgency", stop, { urgency: 0, icon: "dialog-information" }],
    [
      "Notification (attention) as normal urgency",
      attention,
      { urgency: 1, icon: "dialog-question" },
    ],
    ["a failed SessionEnd as critical urgency", failure, { urgency: 2, icon: "dialog-error" }],
  ])("delivers %s with our app name, summary and body", async (_name, notification, expected) => {
    const daemon = await startNotificationDaemon();
    await send(notification, realEnv(daemon.env));
    expect(await daemon.calls()).toEqual([
      {
        appName: "hook-notify",
        summary: notification.title,
        body: inert(notification.body),
        expireTimeout: -1,
        actions: [],
        ...expected,
      },
    ]);
  });

  it("passes the configured app name, icon and expiry to the daemon", async () => {
    const daemon = await startNotificationDaemon();
    await send(stop, realEnv(daemon.env), {
      appName: "agents",
      icon: "/opt/icons/bot.png",
      expireSeconds: 2.5,
    });
    expect(await daemon.calls()).toMatchObject([
      { appName: "agents", icon: "/opt/icons/bot.png", expireTimeout: 2_500 },
    ]);
  });

  it("sends the banner on the hook path (not waiting) and it arrives", async () => {
    const daemon = await startNotificationDaemon();
    await send(attention, realEnv(daemon.env), { wait: false });
    expect(await daemon.waitForCalls(1)).toMatchObject([
      { appName: "hook-notify", summary: attention.title, body: attention.body, urgency: 1 },
    ]);
  });

  it("delivers hostile text literally as one summary and one body, and runs none of it", async () => {
    const daemon = await startNotificationDaemon();
    const canary = canaryPath();
    const text = hostileText(canary);
    await send(sampleNotification(text), { ...realEnv(daemon.env), CANARY: canary });
    const calls = await daemon.calls();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ summary: text.title, body: text.body, urgency: 2 });
    expect(existsSync(canary)).toBe(false);
  });

  describe("with backend node-notifier (notify-send through a shell)", () => {
    function useNodeNotifier(bus: { DBUS_SESSION_BUS_ADDRESS: string }, canary: string) {
      setProcessEnv({ ...bus, CANARY: canary });
      return { ...realEnv(bus), CANARY: canary };
    }

    it("delivers hostile text literally (newlines and backslashes too) and runs none of it", async () => {
      const daemon = await startNotificationDaemon();
      const canary = canaryPath();
      const { title, body } = hostileText(canary);
      const text = { title: title.slice(1), body }; // a leading "-" is the next test
      const env = useNodeNotifier(daemon.env, canary);
      await send(sampleNotification(text), env, { backend: "node-notifier" });
      const calls = await daemon.calls();
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ summary: text.title, body: text.body });
      expect(existsSync(canary)).toBe(false);
    });

    it("loses the app name and the critical urgency, and sets a 10 s expiry", async () => {
      const daemon = await startNotificationDaemon();
      const env = useNodeNotifier(daemon.env, canaryPath());
      await send(failure, env, { backend: "node-notifier" });
      const calls = await daemon.calls();
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({ appName: "notify-send", expireTimeout: 10_000 });
      expect(calls[0]!.urgency).not.toBe(2);
    });

    it("rejects a title or body that starts with '-' (notify-send reads it as an option)", async () => {
      const daemon = await startNotificationDaemon();
      const canary = canaryPath();
      const env = useNodeNotifier(daemon.env, canary);
      const bullet = sampleNotification({ title: "shop-api", body: "- fixed the checkout" });
      await expect(send(bullet, env, { backend: "node-notifier" })).rejects.toMatchObject({
        code: "SINK_FAILED",
      });
      const dash = sampleNotification({ title: `-x "; touch ${canary}; echo "`, body: "b" });
      await expect(send(dash, env, { backend: "node-notifier" })).rejects.toMatchObject({
        code: "SINK_FAILED",
      });
      expect(await daemon.calls()).toEqual([]);
      expect(existsSync(canary)).toBe(false);
    });
  });
});

// The Notify call over D-Bus, against a session bus in this process (fast, no daemon needed).
describe.runIf(isLinux)("desktop sink on an in-process notification bus", () => {
  it.each<[string, Notification, { urgency: 0 | 1 | 2; icon: string; category: string }]>([
    ["done", stop, { urgency: 0, icon: "dialog-information", category: "im.received" }],
    ["attention", attention, { urgency: 1, icon: "dialog-question", category: "im.received" }],
    ["failure", failure, { urgency: 2, icon: "dialog-error", category: "im.error" }],
  ])("sends the exact Notify for a %s notification", async (_level, notification, expected) => {
    const bus = await fakeNotificationBus();
    await send(notification, { PATH: "/nonexistent", ...bus.env });
    expect(bus.calls()).toEqual([
      {
        appName: "hook-notify",
        summary: notification.title,
        body: inert(notification.body),
        urgency: expected.urgency,
        expireTimeout: -1,
        icon: expected.icon,
        actions: [],
      },
    ]);
    expect(desktop.render(notification, options(), testDeps(bus.env))).toEqual({
      backend: "notify-send",
      notify: {
        appName: "hook-notify",
        icon: expected.icon,
        summary: notification.title,
        body: notification.body,
        actions: [],
        hints: { urgency: expected.urgency, category: expected.category },
        expireTimeoutMs: -1,
      },
    });
  });

  it("sends the configured app name and icon, and the expiry in milliseconds", async () => {
    const bus = await fakeNotificationBus();
    await send(stop, bus.env, { appName: "bots", icon: "x.png", expireSeconds: 1.5 });
    expect(bus.calls()).toMatchObject([{ appName: "bots", icon: "x.png", expireTimeout: 1500 }]);
  });

  it("escapes & < > where the daemon reads markup, and sends hostile text as it is otherwise", async () => {
    const canary = canaryPath();
    const text = hostileText(canary);
    const marked = sampleNotification({
      title: "<b>t</b>",
      body: `a <i>b</i> & c \\n ${text.body}`,
    });
    const markup = await fakeNotificationBus();
    await send(marked, { ...markup.env, CANARY: canary });
    expect(markup.calls()).toMatchObject([{ summary: "<b>t</b>", body: inert(marked.body) }]);
    expect(markup.calls()[0]?.body).toMatch(/^a &lt;i&gt;b&lt;\/i&gt; &amp; c \\n "; touch/);
    const plain = await fakeNotificationBus({ capabilities: ["body", "actions"] });
    await send(sampleNotification(text), { ...plain.env, CANARY: canary });
    // Backslashes go as they are: no program unescapes them on the way.
    expect(plain.calls()).toMatchObject([{ summary: text.title, body: text.body }]);
    expect(existsSync(canary)).toBe(false);
  });

  it("is unavailable, for good, without a session bus", async () => {
    const runtime = tempDir("runtime");
    for (const env of [
      { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" },
      { XDG_RUNTIME_DIR: runtime },
    ])
      await expect(send(stop, env)).rejects.toMatchObject({
        code: "SINK_UNAVAILABLE",
        retryable: false,
        message: expect.stringMatching(/^desk: /) as unknown,
      });
  });

  it("fails when nobody owns org.freedesktop.Notifications, or the daemon answers an error", async () => {
    const absent = await fakeNotificationBus({ noDaemon: true });
    await expect(send(stop, absent.env)).rejects.toMatchObject({
      code: expect.stringMatching(/^SINK_(FAILED|UNAVAILABLE)$/) as unknown,
    });
    const failing = await fakeNotificationBus({ failWith: "org.freedesktop.DBus.Error.Failed" });
    await expect(send(stop, failing.env)).rejects.toMatchObject({ code: "SINK_FAILED" });
  });

  it("gives up on a daemon that does not answer in time", async () => {
    const slow = await fakeNotificationBus({ delayMs: 30_000 });
    await expect(send(stop, slow.env, { ms: 500 })).rejects.toMatchObject({
      code: expect.stringMatching(/^SINK_/) as unknown,
    });
  });

  it("on the hook path (not waiting) the banner is sent all the same", async () => {
    const bus = await fakeNotificationBus();
    await send(attention, bus.env, { wait: false });
    expect(bus.calls()).toMatchObject([{ summary: attention.title, urgency: 1 }]);
  });
});

// The worker's banner (it follows the banner): whatever the listener beside it does, the sink's
// result is the daemon's answer, so a failed banner fails the sink and its fallback runs
// (delivery/fallback.ts); the id in Notify's reply is the receipt.
describe.runIf(isLinux)("the worker's banner: the result is the daemon's answer", () => {
  function sendAsWorker(
    env: Record<string, string>,
    receipts: ReceiptEvent[],
    opts: Record<string, unknown> = {},
  ): Promise<unknown> {
    return desktop.send(stop, options(opts), {
      signal: AbortSignal.timeout(8_000),
      deps: { ...testDeps({ PATH: "/nonexistent", ...env }), worker: true },
      sinkName: "desk",
      wait: false,
      receipt: (event) => receipts.push(event),
    });
  }

  it.each([
    ["answers an error", { failWith: "org.freedesktop.DBus.Error.Failed" }],
    ["is absent", { noDaemon: true }],
  ])("a daemon that %s fails the sink, with no receipt", async (_what, how) => {
    const bus = await fakeNotificationBus(how);
    const receipts: ReceiptEvent[] = [];
    await expect(sendAsWorker(bus.env, receipts)).rejects.toMatchObject({
      code: expect.stringMatching(/^SINK_(FAILED|UNAVAILABLE)$/) as unknown,
    });
    expect(receipts).toEqual([]);
  });

  // The listener's program (CI has it: notification-daemon.ts's tools).
  const monitor = findProgram("dbus-monitor", process.env, "linux");
  it.runIf(monitor !== undefined).each([
    ["lists actions", ["actions", "body"], ["default", "Focus"], "click: kitty window 7"],
    ["lists none", ["body"], [], "none: the notification daemon does not support actions"],
  ])(
    "with a listener, a daemon that %s gets the click action or none",
    async (_what, capabilities, actions, action) => {
      const bus = await fakeNotificationBus({ capabilities });
      const bin = fakeBin(["kitty"], { real: { "dbus-monitor": String(monitor) } });
      const kitty = { KITTY_WINDOW_ID: "7", KITTY_LISTEN_ON: "unix:/tmp/kitty-4242" };
      const receipts: ReceiptEvent[] = [];
      const env = { ...bin.env, ...bus.env, ...kitty };
      await expect(sendAsWorker(env, receipts)).resolves.toMatchObject({ messageId: "1", action });
      expect(bus.calls()).toMatchObject([{ actions }]);
      expect(receipts).toEqual([{ state: "shown", id: "1" }]);
    },
  );

  it.each([
    ["focusSeconds is 0", { focusSeconds: 0 }],
    ["dbus-monitor not found (Debian/Ubuntu: dbus-bin; Fedora: dbus-tools)", {}],
  ])("without a listener (%s), the id from the reply is the receipt", async (why, opts) => {
    const bus = await fakeNotificationBus();
    const receipts: ReceiptEvent[] = [];
    await expect(sendAsWorker(bus.env, receipts, opts)).resolves.toEqual({
      messageId: "1",
      action: `none: ${why}`,
    });
    expect(receipts).toEqual([
      { state: "shown", id: "1" },
      { state: "unknown", id: "1", reason: why },
    ]);
  });
});
