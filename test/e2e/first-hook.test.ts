// The hooks with no stamp to go by (issue #41 item 4, src/link/PROTOCOL.md "a hook"): the very
// first hook, and the first after a config edit with no worker running. The hook masks the
// config's secrets itself (link/config-mask.ts), writes the event durably and starts a worker,
// which validates the config and runs the event. The built binary and its worker, as real
// processes; a real HTTP server; an in-process D-Bus notification service and a fake paplay. Nothing here measures time.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fakeBin } from "../helpers/fake-bin.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, handedOverRun, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

const outbox = (home: TempHome) => join(home.dir, "state", "hook-notify", "outbox");
const filesIn = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);
const runLine = (home: TempHome, session: string) =>
  home.logLines().find((line) => line.session === session && line.event !== undefined);

describe("a hook with no stamp (the first ever, the first after a config edit)", () => {
  it("masks a quoted ${VAR} secret before the event touches the disk, also over 64 KiB; a worker delivers it once", async () => {
    const server = await startHttpServer();
    const token = "firstHookSECRETtoken0123456789";
    const secretUrl = `${server.url}/in/${token}`;
    const home = tempHome({ HN_FIRST_URL: secretUrl });
    home.writeConfig({ sinks: { hook: { type: "webhook", url: "${HN_FIRST_URL}" } } });
    // A worker holds the lock (this test's process, with no socket): the worker the hook starts
    // stands aside, so the event waits in events/ as the hook wrote it.
    mkdirSync(outbox(home), { recursive: true });
    const lock = join(outbox(home), "worker.lock");
    writeFileSync(lock, JSON.stringify({ pid: process.pid, token: "test", startedAt: Date.now() }));
    const quoted = `Posted to ${secretUrl} (${encodeURIComponent(secretUrl)}), ${token.toUpperCase()}.`;
    const big = fixture("claude-code/Stop.json", {
      session_id: "first-big",
      last_assistant_message: `${quoted}\n${"All done after the tool ran. ".repeat(4_000)}`,
    });
    expect(big.length).toBeGreaterThan(64 * 1024);
    const run = await runBin(["--client", "claude-code", "--timeout", "10"], {
      input: big,
      env: home.env,
      settle: false,
    });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const waiting = filesIn(join(outbox(home), "events"));
    expect(waiting).toHaveLength(1);
    const written = readFileSync(join(outbox(home), "events", waiting[0] ?? ""), "utf8");
    expect(written.toLowerCase()).not.toContain(token.toLowerCase());
    expect(written).toContain("***");
    expect(written).toContain("All done after the tool ran.");
    // The lock's holder is gone: the next hook's worker runs both events, each once.
    rmSync(lock);
    const next = await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: "first-next" }),
      env: home.env,
    });
    expect(next).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await handedOverRun(home.env);
    const requests = await server.waitForRequests(2, 30_000);
    const sessions = requests.map(
      (request) =>
        (JSON.parse(request.body) as { data: { session: { id: string } } }).data.session.id,
    );
    expect(sessions.sort()).toEqual(["first-big", "first-next"]);
    expect(runLine(home, "first-big")).toMatchObject({ via: "worker" });
    for (const file of readdirSync(join(home.dir, "state"), { recursive: true }) as string[]) {
      const path = join(home.dir, "state", file);
      if (!existsSync(path) || !/\.(json|ndjson)$/.test(file)) continue;
      expect(readFileSync(path, "utf8").toLowerCase()).not.toContain(token.toLowerCase());
    }
  });

  it("a config that does not parse: exit 1, one line on stderr per version of the file, and the built-in default delivers", async () => {
    const bin = fakeBin(["paplay"]);
    const bus = await fakeNotificationBus();
    const home = tempHome({ DISPLAY: ":7" });
    const env = {
      ...home.env,
      ...bin.env,
      ...bus.env,
      PATH: `${bin.dir}:${String(home.env.PATH)}`,
    };
    const file = home.writeConfig('{ "sinks": { "hook": { "type": "webhook" ');
    const first = await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: "broken-1" }),
      env,
    });
    expect(first).toMatchObject({ code: 1, stdout: "" });
    const lines = first.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${file}: invalid JSON at line 1`);
    expect(lines[0]).toContain("hook-notify doctor");
    // The worker ran the event with the built-in default and announced the problem once.
    expect(runLine(home, "broken-1")).toMatchObject({ via: "worker", event: "Stop" });
    await expect
      .poll(() => bus.calls().some((call) => call.summary.includes("config has a problem")))
      .toBe(true);
    const second = await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: "broken-2" }),
      env,
    });
    expect(second).toMatchObject({ code: 1, stdout: "", stderr: "" });
    expect(runLine(home, "broken-2")).toMatchObject({ via: "worker", event: "Stop" });
  });
});
