// Issue 27, "a digest when you return", on the BUILT binary: five sessions end, fail or wait while
// a REAL tmux server says the agent's pane is not in front; the background worker holds their
// deliveries (durably, in the outbox's digest/ folder) and, once the pane is in front again, sends
// one digest with the five titles to a real local HTTP server (a webhook sink) and one banner
// on an in-process D-Bus notification service that records each Notify. The worker asks the probes again
// every 15 s while you are away, so the waits below are generous.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeBin } from "../helpers/fake-bin.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { startHttpServer } from "../helpers/http-server.js";
import { hasTmux, startRealTmux } from "../helpers/real-tmux.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { waitUntil } from "../helpers/wait-until.js";

const TMUX = hasTmux
  ? execFileSync("sh", ["-c", "command -v tmux"], { encoding: "utf8" }).trim()
  : "";

const SESSIONS = [
  { project: "shop-api", title: "Fix the login bug", event: "Stop.json" },
  { project: "billing", title: "Migrate invoices to v2", event: "StopFailure.json" },
  { project: "docs-site", title: "Rewrite the install guide", event: "Notification.json" },
  { project: "mobile", title: "Dark mode toggle", event: "Stop.json" },
  { project: "infra", title: "Rotate the staging certs", event: "Stop.json" },
];

function count(home: TempHome, outbox: string): number {
  return home.logLines().filter((line) => line.outbox === outbox).length;
}

describe.runIf(hasTmux)("a digest when you return (real tmux presence, real HTTP sink)", () => {
  it("holds five sessions' events while away and sends one digest with five titles on return", async () => {
    const tmux = await startRealTmux();
    const bin = fakeBin([], { real: { tmux: TMUX } });
    const bus = await fakeNotificationBus();
    const server = await startHttpServer();
    const home = tempHome({ ...bin.env, ...tmux.env, ...bus.env });
    home.writeConfig({
      dedupeSeconds: 0,
      sinks: {
        desktop: { type: "desktop", digest: "return", idleSeconds: 3600 },
        hook: {
          type: "webhook",
          url: `${server.url}/inbox-7f3a`,
          digest: "return",
          idleSeconds: 3600,
        },
      },
    });

    tmux.tmux("new-window", "-t", "agent"); // the agent's pane is no longer in front: away
    for (const [i, session] of SESSIONS.entries()) {
      const dir = join(home.dir, "projects", session.project);
      mkdirSync(dir, { recursive: true });
      const transcript = join(dir, "transcript.jsonl");
      writeFileSync(
        transcript,
        `${JSON.stringify({ type: "custom-title", customTitle: session.title })}\n`,
      );
      const result = await runBin(["--timeout", "10"], {
        input: fixture(`claude-code/${session.event}`, {
          session_id: `session-${String(i)}`,
          cwd: dir,
          transcript_path: transcript,
          ...(session.event === "Stop.json"
            ? { last_assistant_message: `Done with ${session.project}.` }
            : {}),
        }),
        env: home.env,
      });
      expect(result).toMatchObject({ code: 0, stdout: "" });
    }
    // Both sinks of all five runs are held, none sent.
    await waitUntil(() => count(home, "held") === 10, "ten held deliveries");
    const held = home.logLines().filter((line) => line.outbox === "held");
    expect(held.every((line) => line.rule === "digest")).toBe(true);
    expect(held[0]).toMatchObject({ presence: { state: "away", probe: "tmux" } });
    const digestDir = join(home.dir, "state", "hook-notify", "outbox", "digest");
    const files = readdirSync(digestDir).flatMap((dir) => readdirSync(join(digestDir, dir)));
    expect(files.filter((name) => name.endsWith(".json"))).toHaveLength(10);
    expect(server.requests).toEqual([]);
    expect(bus.calls()).toEqual([]);

    const waiting = await runBin(["log"], { env: home.env });
    expect(waiting.stdout.match(/held hook \(digest: away \(tmux: /g)).toHaveLength(5);

    tmux.tmux("select-window", "-t", "agent:0"); // back
    await server.waitForRequests(1, 90_000);
    await waitUntil(() => count(home, "delivered") === 2, "the digest delivered to both sinks");
    expect(server.requests).toHaveLength(1);
    const payload = JSON.parse(server.requests[0]?.body ?? "{}") as {
      data: { title: string; body: string; digest: { id: string }[] };
    };
    const { title, body, digest } = payload.data;
    expect(title).toBe("While you were away: 5 sessions, 1 failed, 1 waiting for you");
    for (const session of SESSIONS)
      expect(body).toContain(`• ${session.project} · ${session.title}`);
    expect(body).toContain("last: Done with shop-api.");
    expect(body).toContain("failed: Agent stopped on an error (unknown)");
    expect(body).toContain("waits for you: Claude needs your permission");
    expect(digest).toHaveLength(5);
    const banners = bus.calls();
    expect(banners).toHaveLength(1);
    expect(`${banners[0]?.summary} ${banners[0]?.body}`).toContain(
      "While you were away: 5 sessions",
    );

    // Each run says which digest took it.
    const digestId = home.logLines().find((line) => line.outbox === "digest")?.id;
    expect(String(digestId)).toMatch(/^digest-/);
    const log = await runBin(["log"], { env: home.env });
    const inDigest = log.stdout
      .split("\n")
      .filter((line) => line.includes(`(in digest ${String(digestId)})`));
    expect(inDigest).toHaveLength(5);
    expect(log.stdout).not.toMatch(/held (desktop|hook)/);
  });
});
