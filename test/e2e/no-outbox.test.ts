// With no outbox (the state folder cannot be made or written), a remote delivery is sent once from
// the hook (retries belong to the outbox alone), the hook says so on stderr, and a trace is left.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { runBin, tempHome } from "../helpers/run-bin.js";

// A private temp dir for the fallback log, so the test reads only its own trace.
function privateTmp(): string {
  const dir = mkdtempSync(join(tmpdir(), "hn-tmp-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

const fallbackLog = (tmp: string) =>
  join(tmp, `hook-notify-${process.getuid?.() ?? "user"}`, "log.ndjson");

describe("no outbox", () => {
  // As root a missing or read-only folder is simply made or written; a file in the way is not.
  it("a state folder that cannot be made: sent once, said on stderr, logged in the temp dir", async () => {
    const server = await startHttpServer([{ status: 200 }]);
    const tmp = privateTmp();
    const home = tempHome();
    writeFileSync(join(home.dir, "state"), "");
    const env = { ...home.env, TMPDIR: tmp };
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/h` } } });
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "direct" });
    const result = await runBin(["--timeout", "8"], { input, env });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(server.requests).toHaveLength(1);
    expect(result.stderr).toContain("the outbox cannot be written");
    expect(result.stderr).toContain("hook: sent directly (1 attempt(s))");
    const trace = readFileSync(fallbackLog(tmp), "utf8");
    expect(JSON.parse(trace.trim())).toMatchObject({
      event: "Stop",
      outcomes: [{ sink: "hook", ok: true, attempts: 1 }],
    });
    expect(result.stderr).toContain(fallbackLog(tmp));
  });

  it("a delivery that keeps failing is named as lost on stderr, not silently dropped", async () => {
    const server = await startHttpServer([{ status: 503 }]);
    const tmp = privateTmp();
    const home = tempHome();
    writeFileSync(join(home.dir, "state"), "");
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/h` } } });
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "lost" });
    const result = await runBin(["--timeout", "3"], { input, env: { ...home.env, TMPDIR: tmp } });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(server.requests).toHaveLength(1);
    expect(result.stderr).toContain("hook: NOT delivered after 1 attempt(s)");
    expect(readFileSync(fallbackLog(tmp), "utf8")).toContain('"ok":false');
  });
});
