import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { FIXTURES, fixture, runBin, tempHome } from "../helpers/run-bin.js";

const allFixtures = ["claude-code", "claude-code-read", "droid", "droid-documented"].flatMap(
  (dir) =>
    readdirSync(join(FIXTURES, dir))
      .filter((file) => file.endsWith(".json"))
      .map((file) => `${dir}/${file}`),
);

// The hook contract, on the built binary: never exit 2, never a byte on stdout, one log line a run.
describe("hook mode, end to end", () => {
  it.each(allFixtures)("%s: exit 0, empty stdout, one log line", async (name) => {
    const home = tempHome();
    const result = await runBin(["--timeout", "5"], { input: fixture(name), env: home.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("");
    expect(home.logLines()).toHaveLength(1);
  });

  it("logs the event, the outcome of each sink and no error for a Stop", async () => {
    const home = tempHome();
    await runBin([], { input: fixture("claude-code/Stop.json"), env: home.env });
    const [line] = home.logLines();
    expect(line).toMatchObject({
      event: "Stop",
      client: "claude-code",
      project: "shop-api",
      failure: false,
    });
    expect((line?.outcomes as { sink: string }[]).map((o) => o.sink).sort()).toEqual([
      "desktop",
      "sound",
    ]);
    expect(line?.error).toBeUndefined();
  });

  it("records an unknown event as ignored and exits 0", async () => {
    const home = tempHome();
    const result = await runBin([], {
      input: '{"hook_event_name":"PreToolUse","tool_name":"Bash"}',
      env: home.env,
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(home.logLines()[0]).toMatchObject({ ignored: "PreToolUse", outcomes: [] });
  });

  it.each([
    ["garbage", "this is not json {", "INPUT_INVALID"],
    ["empty stdin", "", "INPUT_EMPTY"],
    ["a JSON array", "[1,2,3]", "INPUT_INVALID"],
  ])("%s: exit 1 with one stderr line, nothing on stdout, logged", async (_label, input, code) => {
    const home = tempHome();
    const result = await runBin([], { input, env: home.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(home.logLines()).toMatchObject([{ error: { code } }]);
  });

  // The hook reads stdin without node:net (link/fd-input.ts): a socket read stuck in the thread
  // pool would hold node's exit, so once the run is logged the hook ends by its own SIGKILL.
  it("ends inside --timeout when stdin never closes", async () => {
    const home = tempHome();
    const result = await runBin(["--timeout", "2"], { neverClose: true, env: home.env });
    if (result.signal === null) expect(result.code).toBe(1);
    else expect(result.signal).toBe("SIGKILL");
    expect(result.stdout).toBe("");
    expect(result.ms).toBeLessThan(2000 + 1500); // generous: node start-up on a busy machine
    expect(home.logLines()).toMatchObject([{ error: { code: "INPUT_TIMEOUT" } }]);
  });

  it("is not held up by a transcript_path that names a FIFO nobody writes to", async () => {
    const home = tempHome();
    const fifo = join(home.dir, "transcript.jsonl");
    execFileSync("mkfifo", [fifo]);
    const input = JSON.stringify({
      hook_event_name: "Stop",
      session_id: "s",
      transcript_path: fifo,
    });
    const result = await runBin(["--timeout", "3"], { input, env: home.env, killAfterMs: 10_000 });
    expect(result).toMatchObject({ code: 0, signal: null, stdout: "" });
    expect(home.logLines()).toMatchObject([{ event: "Stop" }]);
  });

  it("refuses a 5 MiB stdin without buffering it", async () => {
    const home = tempHome();
    const huge = `{"hook_event_name":"Stop","message":"${"x".repeat(5 * 1024 * 1024)}"}`;
    const result = await runBin([], { input: huge, env: home.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(home.logLines()).toMatchObject([{ error: { code: "INPUT_TOO_LARGE" } }]);
  });

  it("with a config that is not JSON: notifies with the defaults, names the file, exits 1", async () => {
    const home = tempHome();
    const file = home.writeConfig('{ "sinks": { "x": { "type": "desktop", } ');
    const result = await runBin([], { input: fixture("claude-code/Stop.json"), env: home.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(file);
    const [line] = home.logLines();
    expect(line).toMatchObject({ error: { code: "CONFIG_INVALID" } });
    expect((line?.outcomes as unknown[]).length).toBe(2);
  });

  it("skips a broken sink entry, logs why, and the valid sinks still deliver", async () => {
    const server = await startHttpServer();
    const home = tempHome();
    home.writeConfig({
      sinks: {
        team: { type: "chat", service: "slack", url: "not a url" },
        hook: { type: "webhook", url: `${server.url}/hook` },
      },
    });
    const result = await runBin(["--wait"], {
      input: fixture("claude-code/Stop.json"),
      env: home.env,
    });
    expect(result.code).toBe(1); // --wait reports the config issue
    expect(result.stderr).toContain("sinks.team.url");
    expect(server.requests).toHaveLength(1);
    expect(home.logLines()[0]?.issues).toEqual([expect.stringContaining("sinks.team.url")]);
  });

  it("never exits 2, whatever the arguments", async () => {
    const home = tempHome();
    for (const args of [
      ["--bogus"],
      ["--timeout", "abc"],
      ["run", "--client", "nope"],
      ["--config"],
    ]) {
      const result = await runBin(args, {
        input: fixture("droid/SessionEnd-other.json"),
        env: home.env,
      });
      expect(result.code).not.toBe(2);
      expect(result.stdout).toBe("");
    }
  });
});

describe("--dry-run", () => {
  it("prints one JSON line per planned delivery and sends nothing", async () => {
    const home = tempHome();
    const result = await runBin(["--dry-run"], {
      input: fixture("droid/SessionEnd-other.json"),
      env: home.env,
    });
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.sink)).toEqual(["desktop", "sound"]);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual([
        "sink",
        "type",
        "target",
        "event",
        "failure",
        "title",
        "body",
        "payload",
      ]);
      expect(line).toMatchObject({
        event: "SessionEnd",
        failure: true,
        title: "shop-api · Session ended with an error (reason: other)",
      });
    }
    expect(home.logLines()).toHaveLength(0);
  });

  it("never shows a secret", async () => {
    const home = tempHome({
      SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T0SECRET1/B0SECRET2/xoxSECRETTOKEN3",
    });
    home.writeConfig({
      sinks: {
        slack: { type: "chat", service: "slack", url: "${SLACK_WEBHOOK_URL}" },
        hook: {
          type: "webhook",
          url: "https://example.test/in?token=QUERYSECRET9",
          secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
          headers: { authorization: "Bearer HEADERSECRET7" },
        },
      },
    });
    const result = await runBin(["--dry-run"], {
      input: fixture("claude-code/Stop.json"),
      env: home.env,
    });
    expect(result.code).toBe(0);
    for (const secret of [
      "T0SECRET1",
      "B0SECRET2",
      "xoxSECRETTOKEN3",
      "QUERYSECRET9",
      "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "HEADERSECRET7",
    ]) {
      expect(result.stdout + result.stderr).not.toContain(secret);
    }
  });

  it("exits 1 with one line on stderr for unusable input", async () => {
    const home = tempHome();
    const result = await runBin(["--dry-run"], { input: "{", env: home.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("remote sinks from the hook", () => {
  it("returns without waiting for a slow server, and the worker delivers", async () => {
    const server = await startHttpServer([{ status: 200, body: "ok", delayMs: 2000 }]);
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/hook` } } });
    const result = await runBin(["--timeout", "10"], {
      input: fixture("claude-code/Stop.json"),
      env: home.env,
    });
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(home.logLines()[0]).toMatchObject({
      outcomes: [{ sink: "hook", ok: true, queued: true }],
    });
    const [request] = await server.waitForRequests(1, 15_000);
    expect(request?.headers["webhook-id"]).toMatch(/^msg_/);
  });
});
