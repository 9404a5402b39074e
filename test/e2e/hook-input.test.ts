// The event reaches the sinks even when it comes late or a little wrong (issue 13, items 1 and 5).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { BIN, runBin, tempHome } from "../helpers/run-bin.js";

type Sent = { data: { session: { id: string } } };
const sessionsOf = (server: TestHttpServer): string[] =>
  server.requests.map((r) => (JSON.parse(r.body) as Sent).data.session.id).sort();

const hasScript = spawnSync("script", ["--version"]).status === 0;

describe("waiting for the event", () => {
  it("takes an event its client writes 3 s late (no fixed idle second)", async () => {
    const server = await startHttpServer();
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/h` } } });
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "late" });
    const result = await runBin(["--timeout", "10"], { input, env: home.env, inputDelayMs: 3000 });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(home.logLines()).toMatchObject([{ event: "Stop", session: "late" }]);
    await server.waitForRequests(1, 20_000);
    expect(sessionsOf(server)).toEqual(["late"]);
  });

  it.runIf(hasScript)("a terminal with no pipe gets the usage message at once", () => {
    const started = performance.now();
    const run = spawnSync("script", ["-qec", `${process.execPath} ${BIN}`, "/dev/null"], {
      encoding: "utf8",
      timeout: 15_000,
    });
    expect(run.stdout).toContain("reads one event on stdin");
    expect(performance.now() - started).toBeLessThan(8_000); // not the input budget of 10 s
  });
});

describe("lenient fields: a wrong type drops the field, not the event", () => {
  it.each([
    ["SessionEnd", { reason: "error", session_duration_ms: "12" }, "session_duration_ms"],
    ["SessionEnd", { reason: "other", message_count: -3 }, "message_count"],
    ["Notification", { message: 42 }, "message"],
    ["Stop", { stop_hook_active: "true" }, "stop_hook_active"],
  ])("%s with %j notifies, and the log names %s", async (name, fields, field) => {
    const server = await startHttpServer();
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/h` } } });
    const input = JSON.stringify({ hook_event_name: name, session_id: `s-${field}`, ...fields });
    const result = await runBin(["--timeout", "5"], { input, env: home.env });
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const [line] = home.logLines();
    expect(line).toMatchObject({ event: name });
    expect(line?.error).toBeUndefined();
    expect(line?.issues).toEqual([expect.stringContaining(`${field}:`)]);
    await server.waitForRequests(1, 20_000);
    expect(sessionsOf(server)).toEqual([`s-${field}`]);
  });

  it("5,000 levels of nesting in a field nobody reads: the event is still sent", async () => {
    const server = await startHttpServer();
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/h` } } });
    const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    const input = `{"hook_event_name":"Stop","session_id":"deep","extra":${deep}}`;
    const result = await runBin(["--timeout", "5"], { input, env: home.env });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    const [line] = home.logLines();
    expect(line?.outcomes).toMatchObject([{ sink: "hook", ok: true, queued: true }]);
    await server.waitForRequests(1, 20_000);
    expect(sessionsOf(server)).toEqual(["deep"]);
  });
});
