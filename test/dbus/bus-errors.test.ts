// Where the client finds the session bus, and how each way of not reaching a daemon ends: one
// line naming the place and the fix, and no call left waiting.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { sessionBusSockets, unescapeValue } from "../../src/dbus/address.js";
import { openNotificationBus, sharedNotificationBus } from "../../src/dbus/notifications.js";
import type { HookNotifyError } from "../../src/errors.js";
import { findProgram } from "../../src/sinks/find-program.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";

const request = {
  appName: "hook-notify",
  icon: "",
  summary: "s",
  body: "b",
  actions: [],
  hints: {},
  expireTimeoutMs: -1,
};
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as HookNotifyError,
  );

// A unix socket server that answers each connection with `answer` (or nothing), and keeps what
// it received.
async function socketServer(answer?: string): Promise<{ address: string; received: () => Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-sock-"));
  const sockets: Socket[] = [];
  let received = Buffer.alloc(0);
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on("data", (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    socket.once("data", () => {
      if (answer !== undefined) socket.write(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(join(dir, "bus"), resolve));
  onTestFinished(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { address: `unix:path=${join(dir, "bus")}`, received: () => received };
}

describe("the session bus address", () => {
  it("reads every address in order, %-escapes, abstract sockets, runtime=yes and the XDG default", () => {
    const env = {
      DBUS_SESSION_BUS_ADDRESS:
        "tcp:host=localhost,port=1;unix:path=/run/user/1000/my%20bus,guid=0a;unix:abstract=/tmp/dbus-x;unix:runtime=yes;unix:dir=/tmp",
      XDG_RUNTIME_DIR: "/run/user/7",
    };
    const { sockets, skipped } = sessionBusSockets(env);
    expect(sockets.map((socket) => socket.path)).toEqual([
      "/run/user/1000/my bus",
      "\0/tmp/dbus-x",
      "/run/user/7/bus",
    ]);
    expect(skipped).toHaveLength(2);
    expect(sessionBusSockets({ XDG_RUNTIME_DIR: "/run/user/7" }).sockets).toEqual([
      { path: "/run/user/7/bus", address: "$XDG_RUNTIME_DIR/bus" },
    ]);
    expect(sessionBusSockets({}).sockets).toEqual([]);
    expect(unescapeValue("%2Ftmp%2fa%C3%A9")).toBe("/tmp/aé");
    expect(unescapeValue("bad%2")).toBeUndefined();
  });

  it("tries the next address when one fails, and finds $XDG_RUNTIME_DIR/bus when none is set", async () => {
    const fake = await fakeNotificationBus();
    const first = await openNotificationBus({
      DBUS_SESSION_BUS_ADDRESS: `unix:path=/nonexistent/hn-bus;${fake.env.DBUS_SESSION_BUS_ADDRESS}`,
    });
    expect(await first.notify(request)).toBe(1);
    first.end();
    const path = unescapeValue(fake.env.DBUS_SESSION_BUS_ADDRESS.slice("unix:path=".length)) ?? "";
    const second = await openNotificationBus({ XDG_RUNTIME_DIR: dirname(path) });
    expect(await second.notify(request)).toBe(2);
    second.end();
  });
});

describe("no daemon reached", () => {
  it("a bus socket that is not there: SINK_UNAVAILABLE in one line naming DBUS_SESSION_BUS_ADDRESS", async () => {
    const error = await failure(
      openNotificationBus({ DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/hn-bus" }),
    );
    expect(error).toMatchObject({ code: "SINK_UNAVAILABLE" });
    expect(error?.message).toMatch(
      /^no D-Bus session bus here \(DBUS_SESSION_BUS_ADDRESS=unix:path=\/nonexistent\/hn-bus\).*ENOENT.*DBUS_SESSION_BUS_ADDRESS/,
    );
    expect(error?.message).not.toContain("\n");
    expect(await failure(openNotificationBus({}))).toMatchObject({ code: "SINK_UNAVAILABLE" });
  });

  it("a bus that refuses our authentication says so", async () => {
    const server = await socketServer("REJECTED EXTERNAL\r\n");
    const error = await failure(openNotificationBus({ DBUS_SESSION_BUS_ADDRESS: server.address }));
    expect(error).toMatchObject({ code: "SINK_UNAVAILABLE" });
    expect(error?.message).toContain("refused to authenticate us (REJECTED EXTERNAL)");
  });

  it("a bus that never answers: the open gives up at its timeout or when its signal aborts", async () => {
    const server = await socketServer();
    const env = { DBUS_SESSION_BUS_ADDRESS: server.address };
    expect(await failure(openNotificationBus(env, { timeoutMs: 20 }))).toMatchObject({
      code: "SINK_UNAVAILABLE",
    });
    const controller = new AbortController();
    const opening = failure(openNotificationBus(env, { signal: controller.signal }));
    controller.abort(new Error("the worker is leaving"));
    expect((await opening)?.message).toContain("aborted (the worker is leaving)");
  });

  it("a connection that closes rejects the call that waits", async () => {
    const fake = await fakeNotificationBus({ delayMs: 10_000 });
    const bus = await openNotificationBus(fake.env);
    const waiting = failure(bus.notify(request));
    await fake.stop();
    expect(await waiting).toMatchObject({ code: "SINK_FAILED" });
    expect(await failure(bus.notify(request))).toMatchObject({ code: "SINK_FAILED" });
  });

  it("the worker's shared connection is kept, and opened again once it closed", async () => {
    const fake = await fakeNotificationBus();
    const bus = await sharedNotificationBus(fake.env);
    expect(await sharedNotificationBus(fake.env)).toBe(bus);
    bus.end();
    const again = await sharedNotificationBus(fake.env);
    expect(again).not.toBe(bus);
    expect(await again.notify(request)).toBe(1);
    again.end();
  });

  it("the worker's connection asks the capabilities and Inhibited behind Hello, before any answer", async () => {
    // A bus that answers nothing: what arrives was written unanswered.
    const server = await socketServer();
    const controller = new AbortController();
    const opening = failure(
      openNotificationBus(
        { DBUS_SESSION_BUS_ADDRESS: server.address },
        { ahead: { inhibited: true }, signal: controller.signal },
      ),
    );
    const has = (text: string) => server.received().includes(Buffer.from(text));
    await expect.poll(() => has("Hello") && has("GetCapabilities") && has("Inhibited")).toBe(true);
    // In that order, behind the authentication.
    const at = (text: string) => server.received().indexOf(Buffer.from(text));
    expect(at("BEGIN\r\n")).toBeLessThan(at("Hello"));
    expect(at("Hello")).toBeLessThan(at("GetCapabilities"));
    expect(at("GetCapabilities")).toBeLessThan(at("Inhibited"));
    // The open still waits for Hello's answer; given up, the calls behind it fail with it quietly.
    controller.abort(new Error("the worker is leaving"));
    expect((await opening)?.message).toContain("aborted (the worker is leaving)");
  });

  it("the Inhibited asked behind Hello answers the first read; the next read asks again", async () => {
    const fake = await fakeNotificationBus({ inhibited: true });
    const bus = await openNotificationBus(fake.env, { ahead: { inhibited: true } });
    onTestFinished(() => {
      bus.end();
    });
    await expect.poll(() => fake.inhibitedReads()).toBe(1);
    expect(await bus.inhibited()).toBe(true);
    expect(fake.inhibitedReads()).toBe(1);
    fake.setInhibited(false);
    expect(await bus.inhibited()).toBe(false);
    expect(fake.inhibitedReads()).toBe(2);
    // Without `ahead`, nothing is asked until a read.
    const plain = await openNotificationBus(fake.env);
    onTestFinished(() => {
      plain.end();
    });
    expect(fake.inhibitedReads()).toBe(2);
    expect(await plain.inhibited()).toBe(false);
    expect(fake.inhibitedReads()).toBe(3);
  });

  it.runIf(process.platform === "linux" && findProgram("dbus-daemon", process.env, "linux"))(
    "a real bus on an abstract socket where nobody owns org.freedesktop.Notifications",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "hook-notify-abstract-"));
      const config = join(dir, "bus.conf");
      const name = `/tmp/hn-test-${randomBytes(6).toString("hex")}`;
      writeFileSync(
        config,
        `<busconfig><type>session</type><listen>unix:abstract=${name}</listen><auth>EXTERNAL</auth>` +
          `<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
      );
      const daemon = spawn(
        "dbus-daemon",
        [`--config-file=${config}`, "--print-address", "--nofork"],
        { stdio: ["ignore", "pipe", "ignore"] },
      );
      onTestFinished(() => {
        daemon.kill();
        rmSync(dir, { recursive: true, force: true });
      });
      const printed = await new Promise<string>((resolve) =>
        daemon.stdout.once("data", (chunk: Buffer) => {
          resolve(chunk.toString().trim());
        }),
      );
      expect(printed).toContain(`unix:abstract=${name}`);
      if (process.versions.node.startsWith("20.")) {
        const refused = await failure(openNotificationBus({ DBUS_SESSION_BUS_ADDRESS: printed }));
        expect(refused).toMatchObject({ code: "SINK_UNAVAILABLE" });
        expect(refused?.message).toContain(
          "cannot reach an abstract socket (Node 22 and later can)",
        );
        return;
      }
      const bus = await openNotificationBus({ DBUS_SESSION_BUS_ADDRESS: printed });
      try {
        expect(bus.uniqueName).toMatch(/^:1\.\d+$/);
        const error = await failure(bus.notify(request));
        expect(error).toMatchObject({
          code: "SINK_UNAVAILABLE",
          dbusError: "org.freedesktop.DBus.Error.ServiceUnknown",
        });
        expect(error?.message).toContain("nobody owns org.freedesktop.Notifications");
      } finally {
        bus.end();
      }
    },
  );
});
