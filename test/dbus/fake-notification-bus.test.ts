// The in-process fake session bus (test/helpers/fake-notification-bus.ts) against our client:
// the fake speaks enough D-Bus for every call and signal the client makes and follows.
import { describe, expect, it } from "vitest";
import type { HookNotifyError } from "../../src/errors.js";
import { openNotificationBus, type BusSignal } from "../../src/dbus/notifications.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";

const request = {
  appName: "hook-notify",
  icon: "",
  summary: "Droid: needs you",
  body: "a &lt;tag&gt; and 🎉",
  actions: ["default", "Open"],
  hints: { urgency: 1 as const },
  expireTimeoutMs: -1,
};

describe("the fake notification bus", () => {
  it("records Notify calls as sent, gives increasing ids, and answers the daemon's other methods", async () => {
    const fake = await fakeNotificationBus({ capabilities: ["body"] });
    const bus = await openNotificationBus(fake.env);
    try {
      expect(bus.uniqueName).toBe(":1.1");
      const first = await bus.notify(request);
      const second = await bus.notify({ ...request, hints: {}, expireTimeoutMs: 0 });
      expect(second).toBeGreaterThan(first);
      expect(await fake.waitForCalls(2)).toEqual([
        {
          appName: "hook-notify",
          summary: "Droid: needs you",
          body: "a &lt;tag&gt; and 🎉",
          urgency: 1,
          expireTimeout: -1,
          icon: "",
          actions: ["default", "Open"],
        },
        {
          appName: "hook-notify",
          summary: "Droid: needs you",
          body: "a &lt;tag&gt; and 🎉",
          urgency: null,
          expireTimeout: 0,
          icon: "",
          actions: ["default", "Open"],
        },
      ]);
      await bus.close(first);
      expect(fake.closes()).toEqual([first]);
      expect(await bus.capabilities()).toEqual(["body"]);
      expect((await bus.serverInformation()).name).toBe("hook-notify-fake");
    } finally {
      bus.end();
    }
  });

  it("sends ActionInvoked and NotificationClosed to the banner's sender; a closed bus ends the subscription", async () => {
    const fake = await fakeNotificationBus();
    const bus = await openNotificationBus(fake.env);
    try {
      const received: BusSignal[] = [];
      const ended: string[] = [];
      bus.onSignal(
        (signal) => received.push(signal),
        (error) => ended.push(error.code),
      );
      const id = await bus.notify(request);
      fake.invokeAction(id, "default");
      fake.closeNotification(id, 2);
      await expect.poll(() => received.length, { timeout: 5_000 }).toBe(2);
      expect(received).toEqual([
        { member: "ActionInvoked", id, actionKey: "default", sender: ":1.0" },
        { member: "NotificationClosed", id, reason: 2, sender: ":1.0" },
      ]);
      expect(ended).toEqual([]);
      await fake.stop();
      await expect.poll(() => ended, { timeout: 5_000 }).toEqual(["SINK_FAILED"]);
    } finally {
      bus.end();
    }
  });

  it("answers failWith's error name, and ServiceUnknown when no daemon owns the name", async () => {
    const failing = await fakeNotificationBus({
      failWith: "org.freedesktop.Notifications.Error.Busy",
    });
    const bus = await openNotificationBus(failing.env);
    const error = (await bus.notify(request).catch((e: unknown) => e)) as HookNotifyError;
    expect(error).toMatchObject({
      code: "SINK_FAILED",
      dbusError: "org.freedesktop.Notifications.Error.Busy",
    });
    bus.end();

    const empty = await fakeNotificationBus({ noDaemon: true });
    const lonely = await openNotificationBus(empty.env);
    const none = (await lonely.notify(request).catch((e: unknown) => e)) as HookNotifyError;
    expect(none).toMatchObject({ code: "SINK_UNAVAILABLE", retryable: false });
    expect(none.message).toContain("org.freedesktop.Notifications");
    lonely.end();
  });

  it("answers after delayMs, and an aborted signal rejects the waiting Notify at once", async () => {
    const fake = await fakeNotificationBus({ delayMs: 60_000 });
    const bus = await openNotificationBus(fake.env);
    try {
      const controller = new AbortController();
      const waiting = bus.notify(request, controller.signal);
      controller.abort(new Error("the worker is leaving"));
      await expect(waiting).rejects.toMatchObject({
        code: "SINK_FAILED",
        message: expect.stringContaining("the worker is leaving") as string,
      });
      expect(fake.calls()).toEqual([]);
    } finally {
      bus.end();
    }
  });
});

describe("a request that does not fit Notify's signature", () => {
  it("rejects with INTERNAL and leaves the connection usable", async () => {
    const fake = await fakeNotificationBus();
    const bus = await openNotificationBus(fake.env);
    try {
      const broken = { ...request, actions: [42] as unknown as string[] };
      await expect(bus.notify(broken)).rejects.toMatchObject({ code: "INTERNAL" });
      expect(await bus.notify(request)).toBe(1);
    } finally {
      bus.end();
    }
  });
});
