// A banner's first signal can arrive in the same chunk as the Notify reply that gave its id: the
// caller that awaited notify() has its id before the signal reaches the handlers. A bus written
// by hand (src/dbus's marshalling over a real unix socket) sends exactly that chunk.
import { Buffer } from "node:buffer";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, onTestFinished } from "vitest";
import { encodeMessage, MessageType, type Message } from "../../src/dbus/message.js";
import { MessageStream } from "../../src/dbus/message-stream.js";
import { toBusSignal } from "../../src/dbus/notification-signals.js";
import { openNotificationBus, type BusSignal } from "../../src/dbus/notifications.js";

const DAEMON = ":1.0";

// Answers Hello and GetNameOwner; answers Notify with its reply and ActionInvoked in one write.
async function oneChunkBus(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-order-"));
  const server = createServer((socket) => {
    const stream = new MessageStream();
    let authenticated = false;
    const reply = (call: Message, signature: string, body: Message["body"]): Buffer =>
      encodeMessage({
        type: MessageType.return,
        flags: 0,
        serial: call.serial + 1000,
        replySerial: call.serial,
        sender: call.member === "Notify" ? DAEMON : "org.freedesktop.DBus",
        destination: ":1.1",
        signature,
        body,
      });
    socket.on("data", (chunk: Buffer) => {
      let bytes = chunk;
      if (!authenticated) {
        const begin = chunk.indexOf("BEGIN\r\n");
        authenticated = true;
        socket.write(`OK ${"0".repeat(32)}\r\n`);
        bytes = chunk.subarray(begin + 7);
      }
      for (const call of stream.push(bytes)) {
        if (call.member === "Hello") socket.write(reply(call, "s", [":1.1"]));
        else if (call.member === "Notify") {
          const signal = encodeMessage({
            type: MessageType.signal,
            flags: 0,
            serial: 1,
            sender: DAEMON,
            destination: ":1.1",
            path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications",
            member: "ActionInvoked",
            signature: "us",
            body: [9, "default"],
          });
          socket.write(Buffer.concat([reply(call, "u", [9]), signal]));
        } else socket.write(reply(call, "", []));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(join(dir, "bus"), resolve));
  onTestFinished(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return `unix:path=${join(dir, "bus")}`;
}

it("delivers a signal that came with the Notify reply after the caller has the id", async () => {
  const bus = await openNotificationBus({ DBUS_SESSION_BUS_ADDRESS: await oneChunkBus() });
  try {
    const followed = new Set<number>();
    const heard: { signal: BusSignal; followed: boolean }[] = [];
    bus.onSignal((signal) => heard.push({ signal, followed: followed.has(signal.id) }));
    followed.add(
      await bus.notify({
        appName: "a",
        icon: "",
        summary: "s",
        body: "",
        actions: ["default", "Open"],
        hints: {},
        expireTimeoutMs: -1,
      }),
    );
    await expect.poll(() => heard.length, { timeout: 5_000 }).toBe(1);
    expect(heard).toEqual([
      {
        signal: { member: "ActionInvoked", id: 9, actionKey: "default", sender: DAEMON },
        followed: true,
      },
    ]);
  } finally {
    bus.end();
  }
});

it("reads the daemon's three signals by member and signature, and nothing else", () => {
  const signal = (member: string, signature: string, body: Message["body"]): Message => ({
    type: MessageType.signal,
    flags: 0,
    serial: 1,
    sender: DAEMON,
    interface: "org.freedesktop.Notifications",
    member,
    signature,
    body,
  });
  expect(toBusSignal(signal("ActivationToken", "us", [4, "tok"]))).toEqual({
    member: "ActivationToken",
    id: 4,
    token: "tok",
    sender: DAEMON,
  });
  expect(toBusSignal(signal("NotificationClosed", "uu", [4, 3]))).toEqual({
    member: "NotificationClosed",
    id: 4,
    reason: 3,
    sender: DAEMON,
  });
  expect(toBusSignal(signal("ActionInvoked", "uu", [4, 3]))).toBeUndefined();
  expect(toBusSignal(signal("NotificationReplied", "us", [4, "text"]))).toBeUndefined();
  expect(
    toBusSignal({ ...signal("ActionInvoked", "us", [4, "a"]), interface: "org.example.Other" }),
  ).toBeUndefined();
});
