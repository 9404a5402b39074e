import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Notification } from "../../src/core/notification.js";
import type { ReceiptEvent } from "../../src/core/receipt.js";
import { desktop, notifySendArgs } from "../../src/sinks/desktop.js";
import { findProgram } from "../../src/sinks/find-program.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { canaryPath, isRunning, sinkSender } from "../helpers/sink-harness.js";
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
        body: notification.body,
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

  it("starts notify-send detached without waiting (hook path) and the notification still arrives", async () => {
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

describe.runIf(isLinux)("desktop sink with a fake notify-send", () => {
  const bus = { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" };

  it.each<[string, Notification, string[]]>([
    ["done", stop, ["--urgency=low", "--icon=dialog-information", "--category=im.received"]],
    [
      "attention",
      attention,
      ["--urgency=normal", "--icon=dialog-question", "--category=im.received"],
    ],
    ["failure", failure, ["--urgency=critical", "--icon=dialog-error", "--category=im.error"]],
  ])("passes the exact argv for a %s notification", async (_level, notification, flags) => {
    const bin = fakeBin(["notify-send"]);
    await send(notification, { ...bin.env, ...bus });
    const expected = [
      "--print-id",
      "--app-name=hook-notify",
      ...flags,
      "--",
      notification.title,
      notification.body,
    ];
    expect(bin.calls()).toMatchObject([{ program: "notify-send", args: expected }]);
    expect(desktop.render(notification, options(), testDeps(bin.env))).toEqual({
      backend: "notify-send",
      program: "notify-send",
      args: expected,
    });
  });

  it("adds --expire-time in milliseconds and the configured app name and icon", async () => {
    const bin = fakeBin(["notify-send"]);
    await send(
      stop,
      { ...bin.env, ...bus },
      { appName: "bots", icon: "x.png", expireSeconds: 1.5 },
    );
    expect(bin.calls()[0]?.args).toEqual([
      "--print-id",
      "--app-name=bots",
      "--urgency=low",
      "--icon=x.png",
      "--category=im.received",
      "--expire-time=1500",
      "--",
      stop.title,
      stop.body,
    ]);
  });

  it("passes hostile text as exactly two arguments after --, the body's backslashes doubled", async () => {
    const bin = fakeBin(["notify-send"]);
    const canary = canaryPath();
    const text = hostileText(canary);
    await send(sampleNotification(text), { ...bin.env, ...bus, CANARY: canary });
    const args = bin.calls()[0]?.args ?? [];
    expect(args.slice(-3)).toEqual(["--", text.title, text.body.replaceAll("\\", "\\\\")]);
    expect(args).toEqual(notifySendArgs(sampleNotification(text), options()));
    expect(existsSync(canary)).toBe(false);
  });

  it("is unavailable when notify-send is not on PATH", async () => {
    const bin = fakeBin([]);
    await expect(send(stop, { ...bin.env, ...bus })).rejects.toMatchObject({
      code: "SINK_UNAVAILABLE",
      retryable: false,
    });
  });

  it("is unavailable without a session bus or display, and does not start notify-send", async () => {
    const bin = fakeBin(["notify-send"]);
    const emptyRuntimeDir = bin.scratch("runtime");
    await expect(
      send(stop, { ...bin.env, XDG_RUNTIME_DIR: emptyRuntimeDir }),
    ).rejects.toMatchObject({ code: "SINK_UNAVAILABLE", retryable: false });
    expect(bin.calls()).toEqual([]);
  });

  it.each<[string, Record<string, string>]>([
    ["DISPLAY", { DISPLAY: ":0" }],
    ["WAYLAND_DISPLAY", { WAYLAND_DISPLAY: "wayland-0" }],
    ["$XDG_RUNTIME_DIR/bus", { XDG_RUNTIME_DIR: "<runtime>" }],
  ])("finds a desktop session through %s", async (_name, session) => {
    const bin = fakeBin(["notify-send"]);
    const runtime = bin.scratch("runtime");
    if (session.XDG_RUNTIME_DIR) {
      mkdirRuntime(runtime);
    }
    const env = session.XDG_RUNTIME_DIR ? { XDG_RUNTIME_DIR: runtime } : session;
    await send(stop, { ...bin.env, ...env });
    expect(bin.calls()).toHaveLength(1);
  });

  it("fails with SINK_FAILED when notify-send exits non-zero and we wait", async () => {
    const bin = fakeBin(["notify-send"], { exitCode: 1 });
    await expect(send(stop, { ...bin.env, ...bus })).rejects.toMatchObject({
      code: "SINK_FAILED",
    });
  });

  it("reports a notify-send that fails while the hook watches it as SINK_FAILED (hook path)", async () => {
    const bin = fakeBin(["notify-send"], { exitCode: 1 });
    const env = { ...bin.env, ...bus, HOOK_NOTIFY_SETTLE_MS: "8000" };
    await expect(send(stop, env, { wait: false })).rejects.toMatchObject({ code: "SINK_FAILED" });
  });

  it("says started, not delivered, when notify-send still runs as the hook goes on", async () => {
    const bin = fakeBin(["notify-send"], { sleepMs: 30_000 });
    const env = { ...bin.env, ...bus, HOOK_NOTIFY_SETTLE_MS: "100" };
    await expect(send(stop, env, { wait: false })).resolves.toEqual({
      started: true,
      action: expect.stringMatching(/^none: only the background worker/) as unknown,
    });
  });

  it("stops a notify-send that outlives the deadline and reports SINK_TIMEOUT", async () => {
    const bin = fakeBin(["notify-send"], { sleepMs: 10_000 });
    await expect(send(stop, { ...bin.env, ...bus }, { ms: 1_000 })).rejects.toMatchObject({
      code: "SINK_TIMEOUT",
    });
    const [call] = bin.calls();
    expect(call).toBeDefined();
    await expect.poll(() => isRunning(call!.pid), { timeout: 3_000 }).toBe(false);
  });
});

// The worker's banner (it sends without waiting, like the hook, and follows the banner): whatever
// the listener beside it does, the sink's result is notify-send's own, so a failed banner fails
// the sink and its fallback runs (delivery/fallback.ts).
describe.runIf(isLinux)("the worker's banner: the result is notify-send's own", () => {
  const bus = { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" };
  const dbusMonitor = findProgram("dbus-monitor", process.env, process.platform);
  const real = dbusMonitor ? { "dbus-monitor": dbusMonitor } : {};

  function sendAsWorker(
    env: Record<string, string>,
    receipts: ReceiptEvent[],
    opts: Record<string, unknown> = {},
  ): Promise<unknown> {
    return desktop.send(stop, options(opts), {
      signal: AbortSignal.timeout(8_000),
      deps: { ...testDeps(env), worker: true },
      sinkName: "desk",
      wait: false,
      receipt: (event) => receipts.push(event),
    });
  }

  it.each([
    ["prints the id 0 (libnotify 0.8 with no bus or daemon)", "0\n"],
    ["prints nothing", ""],
    ["prints an id", "5\n"],
  ])("a notify-send that exits 1 and %s fails the sink", async (_what, stdout) => {
    const bin = fakeBin(["notify-send"], {
      exitCode: 1,
      real,
      env: { FAKE_BIN_STDOUT_notify_send: stdout },
    });
    const receipts: ReceiptEvent[] = [];
    await expect(sendAsWorker({ ...bin.env, ...bus }, receipts)).rejects.toMatchObject({
      code: "SINK_FAILED",
    });
    expect(receipts).toEqual([]);
  });

  it.runIf(tools.available)(
    "a notify-send that fails while the listener listens on a live bus fails the sink",
    async () => {
      const daemon = await startNotificationDaemon();
      const bin = fakeBin(["notify-send"], {
        exitCode: 1,
        real,
        env: { FAKE_BIN_STDOUT_notify_send: "0\n" },
      });
      const receipts: ReceiptEvent[] = [];
      await expect(sendAsWorker({ ...bin.env, ...daemon.env }, receipts)).rejects.toMatchObject({
        code: "SINK_FAILED",
      });
      expect(receipts).toEqual([]);
    },
  );

  it.each([
    ["its failure fails the sink", 1],
    ["its id is the receipt", 0],
  ])(
    "without a listener, notify-send is waited for past the hook's settle: %s",
    async (_what, exitCode) => {
      const bin = fakeBin(["notify-send"], {
        exitCode,
        sleepMs: 300,
        env: { FAKE_BIN_STDOUT_notify_send: "7\n", HOOK_NOTIFY_SETTLE_MS: "0" },
      });
      const receipts: ReceiptEvent[] = [];
      const sending = sendAsWorker({ ...bin.env, ...bus }, receipts, { focusSeconds: 0 });
      if (exitCode !== 0) {
        await expect(sending).rejects.toMatchObject({ code: "SINK_FAILED" });
        expect(receipts).toEqual([]);
        return;
      }
      await expect(sending).resolves.toEqual({ action: "none: focusSeconds is 0" });
      expect(receipts).toEqual([
        { state: "shown", id: "7" },
        { state: "unknown", id: "7", reason: "focusSeconds is 0" },
      ]);
    },
  );
});

// A runtime dir with a `bus` entry, the way systemd-logind leaves one for a desktop session.
function mkdirRuntime(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, "bus"), "");
}
