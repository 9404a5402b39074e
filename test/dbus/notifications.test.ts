// The client against a real dbus-daemon with python-dbusmock's notification daemon: what the
// daemon records is what was sent, field by field and type by type.
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { openNotificationBus, type BusSignal } from "../../src/dbus/notifications.js";
import {
  isNotificationDaemonAvailable,
  startNotificationDaemon,
  type NotificationDaemon,
} from "../helpers/notification-daemon.js";

// Every Notify argument as dbusmock received it, with the D-Bus type of each hint.
const RAW_CALLS = `
import json, os, dbus
bus = dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
mock = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"), "org.freedesktop.DBus.Mock")
out = []
for _stamp, method, args in mock.GetCalls():
    if method == "Notify":
        hints = {str(k): [type(v).__name__, v if isinstance(v, str) else int(v)] for k, v in args[6].items()}
        out.append({"replacesId": int(args[1]), "hints": hints})
print(json.dumps(out))
`;

// Another program on the bus sends the daemon's signal, to this connection, as if it were the daemon.
const SPOOF = `
import os, sys, dbus, dbus.lowlevel
bus = dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
m = dbus.lowlevel.SignalMessage("/org/freedesktop/Notifications", "org.freedesktop.Notifications", "ActionInvoked")
m.set_destination(sys.argv[1])
m.append(dbus.UInt32(int(sys.argv[2])), "allow")
bus.send_message(m)
bus.flush()
`;

function python(daemon: NotificationDaemon, code: string, args: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = { ...daemon.env, PATH: process.env.PATH ?? "/usr/bin:/bin" };
    execFile("/usr/bin/python3", ["-c", code, ...args], { env }, (error, stdout, stderr) => {
      if (error) reject(new Error(stderr || error.message));
      else resolve(stdout);
    });
  });
}

async function rawCalls(daemon: NotificationDaemon): Promise<unknown[]> {
  return JSON.parse(await python(daemon, RAW_CALLS)) as unknown[];
}

const request = {
  appName: "hook-notify",
  icon: "dialog-information",
  summary: "Claude Code: done",
  body: "a <b>bold</b> &amp; 🎉 body\nsecond line",
  actions: ["default", "Open", "allow", "Allow ✓"],
  hints: { urgency: 2 as const, category: "im.received", resident: true, transient: false },
  expireTimeoutMs: 7000,
};

describe.runIf(isNotificationDaemonAvailable())("notifications over a real session bus", () => {
  it("sends Notify with every field as given, and the daemon's ids increase", async () => {
    const daemon = await startNotificationDaemon(["actions", "body", "body-markup"]);
    const bus = await openNotificationBus(daemon.env);
    try {
      expect(bus.uniqueName).toMatch(/^:\d+\.\d+$/);
      const first = await bus.notify(request);
      const second = await bus.notify({
        ...request,
        replacesId: first,
        hints: {},
        expireTimeoutMs: -1,
      });
      expect(first).toBeGreaterThan(0);
      expect(second).toBeGreaterThanOrEqual(first);
      const third = await bus.notify({ ...request, hints: { "desktop-entry": "hook-notify" } });
      expect(third).toBeGreaterThan(first);
      const calls = await daemon.calls();
      expect(calls[0]).toEqual({
        appName: "hook-notify",
        icon: "dialog-information",
        summary: "Claude Code: done",
        body: "a <b>bold</b> &amp; 🎉 body\nsecond line",
        urgency: 2,
        expireTimeout: 7000,
        actions: ["default", "Open", "allow", "Allow ✓"],
      });
      expect(calls[1]).toMatchObject({ urgency: null, expireTimeout: -1 });
      expect(await rawCalls(daemon)).toEqual([
        {
          replacesId: 0,
          hints: {
            urgency: ["Byte", 2],
            category: ["String", "im.received"],
            resident: ["Boolean", 1],
            transient: ["Boolean", 0],
          },
        },
        { replacesId: first, hints: {} },
        { replacesId: 0, hints: { "desktop-entry": ["String", "hook-notify"] } },
      ]);
    } finally {
      bus.end();
    }
  });

  it("closes a banner, reads the capabilities and the server's information", async () => {
    const daemon = await startNotificationDaemon(["actions", "body"]);
    const bus = await openNotificationBus(daemon.env);
    try {
      const id = await bus.notify(request);
      await bus.close(id);
      expect(await daemon.closes()).toEqual([id]);
      expect(await bus.capabilities()).toEqual(["actions", "body"]);
      expect(await bus.serverInformation()).toEqual({
        name: "mock-notify",
        vendor: "test vendor",
        version: "1.0",
        specVersion: "1.1",
      });
    } finally {
      bus.end();
    }
  });

  it("replaces a NUL and a lone surrogate instead of sending an invalid string", async () => {
    const daemon = await startNotificationDaemon();
    const bus = await openNotificationBus(daemon.env);
    try {
      await bus.notify({ ...request, summary: "a\0b", body: "half \ud83d of a pair" });
      expect(await bus.notify(request)).toBeGreaterThan(0);
      const [call] = await daemon.calls();
      expect(call).toMatchObject({ summary: "a\uFFFDb", body: "half \uFFFD of a pair" });
    } finally {
      bus.end();
    }
  });

  it("receives ActionInvoked and NotificationClosed, broadcast or sent to it, from the daemon only", async () => {
    const daemon = await startNotificationDaemon(["actions"]);
    const bus = await openNotificationBus(daemon.env);
    try {
      const received: BusSignal[] = [];
      const arrived = (count: number) =>
        expect
          .poll(() => received.length, { timeout: 5_000, interval: 10 })
          .toBeGreaterThanOrEqual(count);
      const unsubscribe = bus.onSignal((signal) => received.push(signal));
      const id = await bus.notify(request);
      await python(daemon, SPOOF, [bus.uniqueName, String(id)]);
      await daemon.invokeAction(id, "allow");
      await arrived(1);
      await daemon.closeNotification(id, 2, bus.uniqueName);
      await arrived(2);
      await daemon.closeNotification(id, 1);
      await arrived(3);
      const sender = received[0]?.sender ?? "";
      expect(sender).toMatch(/^:\d+\.\d+$/);
      expect(received).toEqual([
        { member: "ActionInvoked", id, actionKey: "allow", sender },
        { member: "NotificationClosed", id, reason: 2, sender },
        { member: "NotificationClosed", id, reason: 1, sender },
      ]);
      unsubscribe();
    } finally {
      bus.end();
    }
  });
});
