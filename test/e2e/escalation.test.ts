// Escalation end to end: the built binary in hook mode, a webhook "chat" that gets every event
// and a webhook "phone" that gets only the follow-up when the session was not answered in time.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

const WINDOW_SECONDS = 3;

function setup(server: TestHttpServer, afterSeconds = WINDOW_SECONDS) {
  const home = tempHome();
  home.writeConfig({
    escalate: { afterSeconds, to: ["phone"] },
    sinks: {
      chat: { type: "webhook", url: `${server.url}/chat` },
      // Only failures directly: the follow-ups are what it is here for.
      phone: { type: "webhook", url: `${server.url}/phone`, events: ["StopFailure"] },
    },
  });
  return home;
}

const permission = (session: string) =>
  fixture("claude-code/Notification.json", { session_id: session });
const prompt = (session: string) =>
  fixture("claude-code/UserPromptSubmit.json", { session_id: session });
const hook = (home: TempHome, input: string) =>
  runBin(["--timeout", "10"], { input, env: home.env });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const phoneCalls = (server: TestHttpServer) => server.requests.filter((r) => r.url === "/phone");

// The worker's journal line for an outbox entry, once written.
async function journal(home: TempHome, match: (line: Record<string, unknown>) => boolean) {
  for (let i = 0; i < 400; i++) {
    const line = home.logLines().find((l) => l.outbox !== undefined && match(l));
    if (line) return line;
    await sleep(100);
  }
  throw new Error("no such journal line in 40 s");
}

describe("escalation", () => {
  it("an unanswered permission prompt reaches the phone once, after the window, marked as a follow-up", async () => {
    const server = await startHttpServer();
    const home = setup(server);
    const started = Date.now();
    expect(await hook(home, permission("unanswered"))).toMatchObject({ code: 0, stdout: "" });
    const run = home.logLines().find((l) => l.event === "Notification");
    expect(run?.escalations).toEqual([
      { sink: "phone", afterSeconds: WINDOW_SECONDS, id: `${String(run?.id)}.followup` },
    ]);
    await server.waitForRequests(2, 40_000);
    const [call] = phoneCalls(server);
    expect(call?.receivedAt ?? 0).toBeGreaterThanOrEqual(started + WINDOW_SECONDS * 1000);
    const body = JSON.parse(call?.body ?? "{}") as {
      data: { title: string; notificationId: string };
    };
    expect(body.data.title).toMatch(/^Still waiting after 3 s: /);
    expect(body.data.notificationId).toBe(`${String(run?.id)}.followup`);
    await sleep(WINDOW_SECONDS * 1000 + 1000); // nothing more comes
    expect(phoneCalls(server)).toHaveLength(1);
    expect(server.requests.filter((r) => r.url === "/chat")).toHaveLength(1);
  });

  it("an answered one (the session's next UserPromptSubmit) never does", async () => {
    const server = await startHttpServer();
    const home = setup(server);
    await hook(home, permission("answered"));
    const answer = await hook(home, prompt("answered"));
    expect(answer).toMatchObject({ code: 0, stdout: "" });
    const run = home.logLines().find((l) => l.event === "Notification");
    const cancelled = await journal(home, (l) => l.id === `${String(run?.id)}.followup`);
    expect(cancelled).toMatchObject({ outbox: "cancelled", sink: "phone", rule: "escalate" });
    expect(phoneCalls(server)).toEqual([]);
    expect(server.requests.filter((r) => r.url === "/chat")).toHaveLength(1);
  });

  it("survives kill -9 of the waiting worker: the next worker sends it once, with the same id", async () => {
    const server = await startHttpServer();
    const home = setup(server, 4);
    await hook(home, permission("killed"));
    const run = home.logLines().find((l) => l.event === "Notification");
    await server.waitForRequests(1, 20_000); // the chat delivery: the worker now waits for the window
    const lock = join(home.dir, "state", "hook-notify", "outbox", "worker.lock");
    const { pid } = JSON.parse(readFileSync(lock, "utf8")) as { pid: number };
    process.kill(pid, "SIGKILL");
    expect(phoneCalls(server)).toEqual([]);
    // Any later hook starts a worker (here another session's Stop for the chat).
    await sleep(4000);
    await hook(home, fixture("claude-code/Stop.json", { session_id: "other" }));
    await server.waitForRequests(3, 40_000);
    await sleep(1000);
    const phone = phoneCalls(server);
    expect(phone).toHaveLength(1);
    const body = JSON.parse(phone[0]?.body ?? "{}") as { data: { notificationId: string } };
    expect(body.data.notificationId).toBe(`${String(run?.id)}.followup`);
  });
});
