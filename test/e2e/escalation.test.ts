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
  for (let i = 0; i < 900; i++) {
    const line = home.logLines().find((l) => l.outbox !== undefined && match(l));
    if (line) return line;
    await sleep(100);
  }
  throw new Error("no such journal line in 90 s");
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

describe("an escalation chain", () => {
  const chain = (server: TestHttpServer, second: number) => {
    const home = tempHome();
    home.writeConfig({
      escalate: [
        { afterSeconds: 2, to: ["phone"] },
        { afterSeconds: second, to: ["pager"] },
      ],
      sinks: {
        chat: { type: "webhook", url: `${server.url}/chat` },
        phone: { type: "webhook", url: `${server.url}/phone`, events: [] },
        pager: { type: "webhook", url: `${server.url}/pager`, events: [] },
      },
    });
    return home;
  };
  const idOf = (call: { body: string } | undefined) =>
    (JSON.parse(call?.body ?? "{}") as { data: { notificationId: string } }).data.notificationId;

  it("unanswered: each step reaches its sink once, with its own id", async () => {
    const server = await startHttpServer();
    const home = chain(server, 4);
    await hook(home, permission("chain-unanswered"));
    const run = home.logLines().find((l) => l.event === "Notification");
    const id = String(run?.id);
    expect(run?.escalations).toEqual([
      { sink: "phone", afterSeconds: 2, id: `${id}.followup` },
      { sink: "pager", afterSeconds: 4, id: `${id}.followup2` },
    ]);
    await server.waitForRequests(3, 60_000);
    await sleep(3000); // nothing more comes
    const at = (path: string) => server.requests.filter((r) => r.url === path);
    expect(at("/phone").map(idOf)).toEqual([`${id}.followup`]);
    expect(at("/pager").map(idOf)).toEqual([`${id}.followup2`]);
    expect(at("/chat")).toHaveLength(1);
    const log = await runBin(["log"], { env: { ...home.env, NO_COLOR: "1" } });
    expect(log.stdout).toContain("ok phone (follow-up), ok pager (follow-up)");
  }, 120_000);

  it("answered after the first step: the later step is cancelled, never sent", async () => {
    const server = await startHttpServer();
    // The second step is far enough out that the answer comes first on a loaded machine.
    const home = chain(server, 30);
    await hook(home, permission("chain-answered"));
    const id = String(home.logLines().find((l) => l.event === "Notification")?.id);
    await server.waitForRequests(2, 60_000); // the chat delivery and the first follow-up
    expect(phoneCalls(server).map(idOf)).toEqual([`${id}.followup`]);
    expect(await hook(home, prompt("chain-answered"))).toMatchObject({ code: 0, stdout: "" });
    const cancelled = await journal(home, (l) => l.id === `${id}.followup2`);
    expect(cancelled).toMatchObject({ outbox: "cancelled", sink: "pager", rule: "escalate" });
    expect(server.requests.filter((r) => r.url === "/pager")).toEqual([]);
  }, 180_000);
});
