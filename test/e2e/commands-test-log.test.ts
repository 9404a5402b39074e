// `hook-notify test` and `hook-notify log` on the BUILT binary, in a temp HOME, against local servers.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { BIN, ROOT, fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { waitUntil } from "../helpers/wait-until.js";

const SECRETS = ["T0SECRET1", "B0SECRET2", "xoxSECRETTOKEN3", "QUERYSECRET9"];
const ESC = "\u001b[";
const hasScript = process.platform === "linux" && existsSync("/usr/bin/script");

// A webhook sink that answers 200 and a Slack sink whose server answers 404 (a revoked webhook).
async function goodAndRevoked() {
  const good = await startHttpServer([{ status: 200, body: "ok" }]);
  const gone = await startHttpServer([{ status: 404, body: "no_service" }]);
  const home = tempHome();
  home.writeConfig({
    sinks: {
      hook: { type: "webhook", url: `${good.url}/in?token=QUERYSECRET9` },
      team: {
        type: "chat",
        service: "slack",
        events: ["Notification"],
        url: `${gone.url}/services/T0SECRET1/B0SECRET2/xoxSECRETTOKEN3`,
      },
    },
  });
  return { good, gone, home };
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

describe("hook-notify test", () => {
  it("sends to every sink now, names the failing one with its fix, exits 1, prints no secret", async () => {
    const { good, gone, home } = await goodAndRevoked();
    const result = await runBin(["test"], { env: home.env });
    expect(result.code).toBe(1);
    expect(good.requests).toHaveLength(1);
    expect(gone.requests).toHaveLength(1);
    expect(JSON.parse(good.requests[0]!.body)).toMatchObject({
      type: "hook.stop",
      data: {
        project: basename(ROOT),
        body: expect.stringContaining("test notification") as unknown,
      },
    });
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^sink\s+type\s+target\s+result\s+ms$/);
    expect(lines.find((l) => l.startsWith("hook "))).toMatch(
      /webhook\s+http:\/\/127\.0\.0\.1:\d+\/…\s+ok\s+\d+$/,
    );
    expect(lines.find((l) => l.startsWith("team "))).toMatch(
      /chat \(slack\).*failed SINK_HTTP_STATUS 404/,
    );
    expect(result.stdout).toContain(
      "fix: the webhook URL was revoked or is wrong; create a new one in Slack's settings",
    );
    expect(result.stdout).toContain("1 of 2 sinks delivered");
    expect(result.stdout).not.toContain(ESC);
    expectNoSecret(result.stdout + result.stderr);
    // Logged like a hook run, marked as a test, with no secret in it (issue 26: `log` shows it).
    expect(home.logLines()).toHaveLength(1);
    expect(home.logLines()[0]).toMatchObject({ via: "test", event: "Stop" });
    expectNoSecret(JSON.stringify(home.logLines()));
  });

  it("--json prints one object per sink, with code, status and fix for the failure", async () => {
    const { good, home } = await goodAndRevoked();
    const result = await runBin(["test", "--json", "--event", "SessionEnd", "--failure"], {
      env: home.env,
    });
    expect(result.code).toBe(1);
    const [hook, team] = jsonLines(result.stdout);
    expect(hook).toMatchObject({ sink: "hook", type: "webhook", ok: true });
    expect(hook?.target).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
    expect(team).toMatchObject({
      sink: "team",
      type: "chat",
      service: "slack",
      ok: false,
      code: "SINK_HTTP_STATUS",
      status: 404,
      fix: expect.stringContaining("create a new one in Slack's settings") as unknown,
    });
    expectNoSecret(result.stdout + result.stderr);
    expect(JSON.parse(good.requests[0]!.body)).toMatchObject({
      type: "hook.session_end",
      data: { failure: true, reason: "error" },
    });
  });

  it("--sink NAME sends to that sink only; exit 0 when it delivered", async () => {
    const { good, gone, home } = await goodAndRevoked();
    const result = await runBin(["test", "--sink", "hook", "--event", "Notification"], {
      env: home.env,
    });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(good.requests).toHaveLength(1);
    expect(gone.requests).toHaveLength(0);
    expect(JSON.parse(good.requests[0]!.body)).toMatchObject({ type: "hook.notification" });
  });

  it("--sink with an unknown name: exit 2 (usage), one line naming the configured sinks, nothing sent", async () => {
    const { good, gone, home } = await goodAndRevoked();
    const result = await runBin(["test", "--sink", "nope"], { env: home.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/no sink named "nope" in .*config\.json; configured: hook, team\.$/),
    ]);
    expect(good.requests.length + gone.requests.length).toBe(0);
    const typo = await runBin(["test", "--sink", "tema"], { env: home.env });
    expect(typo.stderr).toMatch(/configured: hook, team\. Did you mean "team"\?$/m);
  });

  it("has --help with examples", async () => {
    const result = await runBin(["test", "--help"], { env: tempHome().env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Examples:");
    expect(result.stdout).toContain("--sink");
  });
});

// Three runs: a Stop queued for the webhook (the worker delivers it), a Notification sent with
// --wait to a revoked Slack webhook, an event hook-notify ignores, and input it cannot read.
async function loggedRuns(): Promise<TempHome> {
  const { good, home } = await goodAndRevoked();
  await runBin([], { input: fixture("claude-code/Stop.json"), env: home.env });
  await good.waitForRequests(1, 15_000);
  await waitUntil(() => home.logLines().some((l) => l.outbox === "delivered"));
  await runBin(["--wait"], { input: fixture("claude-code/Notification.json"), env: home.env });
  await runBin([], { input: '{"hook_event_name":"PreToolUse"}', env: home.env });
  await runBin([], { input: "{ not json", env: home.env });
  return home;
}

describe("hook-notify log", () => {
  it("says so when nothing was logged yet, and exits 0", async () => {
    const home = tempHome();
    const result = await runBin(["log"], { env: home.env });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(
      `No runs logged yet at ${join(home.dir, "state", "hook-notify", "log.ndjson")}.`,
    );
  });

  it("shows one row per run with each sink's outcome, the worker's delivery folded in", async () => {
    const home = await loggedRuns();
    const result = await runBin(["log"], { env: home.env });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const [header, stop, notification, ignored, broken, ...rest] = result.stdout
      .trimEnd()
      .split("\n");
    expect(rest).toEqual([]);
    expect(header).toMatch(/^time\s+client\s+event\s+project\s+error\s+sinks$/);
    expect(stop).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+claude-code\s+Stop\s+shop-api\s+/);
    expect(stop).toContain("ok hook");
    expect(stop).toContain("skipped team:");
    expect(notification).toMatch(/Notification\s+shop-api\s+ok hook, failed team SINK_HTTP_STATUS/);
    expect(ignored).toMatch(/PreToolUse \(ignored\)\s+-$/);
    expect(broken).toMatch(/INPUT_INVALID\s+-$/);
    expect(result.stdout).not.toContain(ESC);
    expectNoSecret(result.stdout);
  });

  it("--failed keeps the failed run; --tail limits; corrupt lines are counted", async () => {
    const home = await loggedRuns();
    appendFileSync(join(home.dir, "state", "hook-notify", "log.ndjson"), "not json\n[1]\n");
    const failed = await runBin(["log", "--failed"], { env: home.env });
    expect(failed.code).toBe(0);
    const rows = failed.stdout.trim().split("\n").slice(1);
    expect(rows).toEqual([
      expect.stringContaining("failed team SINK_HTTP_STATUS"),
      expect.stringContaining("INPUT_INVALID"),
    ]);
    expect(failed.stderr).toMatch(/skipped 2 unreadable line\(s\)/);
    const last = await runBin(["log", "--tail", "1"], { env: home.env });
    expect(last.stdout.trim().split("\n")).toHaveLength(2);
    expect(last.stdout).toContain("INPUT_INVALID");
  });

  it("--json passes the logged lines through: each run, then its outbox lines", async () => {
    const home = await loggedRuns();
    const result = await runBin(["log", "--json"], { env: home.env });
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    const what = (l: Record<string, unknown>) =>
      l.outbox ?? l.event ?? l.ignored ?? (l.error as { code?: string } | undefined)?.code;
    expect(lines.map(what)).toEqual([
      "Stop",
      "delivered",
      "Notification",
      "PreToolUse",
      "INPUT_INVALID",
    ]);
    expect(lines).toEqual(home.logLines().filter((l) => l.outbox !== "worker"));
    const failedOnly = jsonLines(
      (await runBin(["log", "--json", "--failed"], { env: home.env })).stdout,
    );
    expect(failedOnly.map(what)).toEqual(["Notification", "INPUT_INVALID"]);
  });

  it.runIf(hasScript)("on a terminal: ✓/✗ and colour, none of it with NO_COLOR=1", async () => {
    const home = await loggedRuns();
    const rich = await runOnTerminal(["log"], home.env);
    expect(rich).toContain(ESC);
    expect(rich).toContain("✓ hook");
    expect(rich).toContain("✗ team SINK_HTTP_STATUS");
    const plain = await runOnTerminal(["log"], { ...home.env, NO_COLOR: "1" });
    expect(plain).not.toContain(ESC);
    expect(plain).not.toContain("✓");
    expect(plain).toContain("failed team SINK_HTTP_STATUS");
  });
});

// Runs the binary on a pseudo-terminal (util-linux `script`), so stdout.isTTY is true.
function runOnTerminal(args: string[], env: Record<string, string | undefined>): Promise<string> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    env: { ...env, PATH: `${env.PATH ?? ""}:/usr/bin:/bin`, TERM: "xterm" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
  const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  return new Promise((resolve) =>
    child.on("close", () => {
      clearTimeout(killer);
      resolve(out);
    }),
  );
}
