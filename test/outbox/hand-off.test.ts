// The hook's side of handing desktop and sound to a live worker: real files, a real Unix socket
// answering as a worker would ("ok", "no", a worker that took the entry first, nobody at all).
import { rename, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { handOffLocal, localEnv, workerSocket } from "../../src/outbox/hand-off.js";
import { ensureDirs } from "../../src/outbox/store.js";
import { outboxEnv, type OutboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const SECRET = "xoxb-never-on-disk";

async function box(): Promise<OutboxEnv> {
  const env = await outboxEnv({ desktop: { type: "desktop" }, sound: { type: "sound" } });
  Object.assign(env.deps.env, {
    DISPLAY: ":3",
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus",
    PATH: "/opt/fake/bin:/usr/bin",
    HOOK_NOTIFY_SLACK_URL: `https://hooks.slack.com/services/T/B/${SECRET}`,
    AWS_SECRET_ACCESS_KEY: SECRET,
  });
  await ensureDirs(env.paths);
  return env;
}

// A stand-in worker on the outbox's socket: `answer` decides what it says to each message.
async function fakeWorker(socket: string, answer: () => Promise<string>): Promise<Server> {
  const server = createServer((connection) => {
    connection.once("data", () => {
      void answer().then((text) => connection.end(text));
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  );
  return server;
}

const deliveries = () => {
  const notification = sampleNotification({ id: `n-${String(Math.random()).slice(2)}` });
  return [
    { notification, sinkName: "desktop" },
    { notification, sinkName: "sound" },
  ];
};

describe("handOffLocal", () => {
  it("leaves durable entries with the hook's display variables, and no secret, when the worker says ok", async () => {
    const env = await box();
    const socket = join(env.paths.root, "w.sock");
    await fakeWorker(socket, () => Promise.resolve("ok\n"));
    expect(await handOffLocal(env.deps, socket, deliveries())).toEqual([true, true]);
    const pending = await env.files("pending");
    expect(pending.map((entry) => entry.sinkName).sort()).toEqual(["desktop", "sound"]);
    expect(pending[0]?.env).toEqual({
      DISPLAY: ":3",
      DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/1000/bus",
      PATH: "/opt/fake/bin:/usr/bin",
      HOME: env.home,
    });
    expect(await env.everything()).not.toContain(SECRET);
  });

  it("takes its entries back when the worker is leaving, or nobody listens", async () => {
    const env = await box();
    const socket = join(env.paths.root, "w.sock");
    await fakeWorker(socket, () => Promise.resolve("no\n"));
    expect(await handOffLocal(env.deps, socket, deliveries())).toEqual([false, false]);
    expect(await env.files("pending")).toEqual([]);
    const nobody = join(env.paths.root, "gone.sock");
    expect(await handOffLocal(env.deps, nobody, deliveries())).toEqual([false, false]);
    expect(await env.files("pending")).toEqual([]);
  });

  it("counts an entry the worker took before saying no as the worker's (never shown twice)", async () => {
    const env = await box();
    const socket = join(env.paths.root, "w.sock");
    await fakeWorker(socket, async () => {
      const [first] = (await env.files("pending")) as { key: string; sinkName: string }[];
      const file = join(env.paths.pending, `${String(first?.key)}.json`);
      await rename(file, join(env.paths.tmp, "taken"));
      return "no\n";
    });
    const result = await handOffLocal(env.deps, socket, deliveries());
    expect(result.filter(Boolean)).toHaveLength(1);
    expect(await env.files("pending")).toEqual([]);
  });

  it("finds the socket named in the worker's lock, and none without a lock", async () => {
    const env = await box();
    expect(workerSocket(env.deps)).toBeUndefined();
    await writeFile(env.paths.lock, JSON.stringify({ pid: 1, token: "t", socket: "/x.sock" }));
    expect(workerSocket(env.deps)).toBe("/x.sock");
  });

  it("keeps only the variables a notifier or player needs", () => {
    expect(localEnv({ DISPLAY: ":1", GITHUB_TOKEN: "ghp_x", SLACK_URL: "https://x" })).toEqual({
      DISPLAY: ":1",
    });
  });
});
