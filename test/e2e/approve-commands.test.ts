// Visible everywhere: `test --approve` waits for a real button press and prints the verified
// answer, `log` shows who answered what and when, `doctor` checks the reply topic.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { pressButton, startFakeNtfy, type FakeNtfy } from "../helpers/ntfy-server.js";

const TOKEN = "tk_commandstesttoken0123456";
const REPLY = "hn-reply-commands-0123456789abcd";

function setUp(ntfy: FakeNtfy, token = TOKEN): TempHome {
  const home = tempHome({ NO_COLOR: "1" });
  home.writeConfig({
    sinks: { phone: { type: "chat", service: "ntfy", url: `${ntfy.url}/requests`, token } },
    approveReplyTopic: REPLY,
    approveSeconds: 20,
  });
  const dir = join(home.dir, "state", "hook-notify");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "approve.key"), `${"b".repeat(64)}\n`);
  chmodSync(join(dir, "approve.key"), 0o600);
  return home;
}

describe("test --approve, log and doctor", () => {
  it("test --approve prints the verified answer; log shows who answered what and when", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const running = runBin(["test", "--approve"], { env: home.env, killAfterMs: 40_000 });
    const request = await ntfy.waitForMessage("requests");
    expect(request.title).toBe("hook-notify test: allow Bash?");
    await pressButton(request, "Deny");
    const result = await running;
    expect(result.code).toBe(0);
    // The countdown is what is left of the request's 20 s when it was sent: how much of it the
    // start took depends on the machine, so only its bounds are the design's.
    const left = Number(
      /Press Allow or Deny on your phone within (\d+) s/.exec(result.stdout)?.[1],
    );
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(20);
    expect(result.stdout).toMatch(/Verified answer: denied from the phone at \d{4}-/);
    expect(result.stdout).toContain(
      'Claude Code would receive: {"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"',
    );
    const log = await runBin(["log"], { env: home.env });
    expect(log.code).toBe(0);
    expect(log.stdout).toMatch(
      /PermissionRequest .*sample denied from the phone via ntfy at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(after /,
    );
    for (const text of [result.stdout, log.stdout]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(REPLY);
    }
  });

  it("test --approve without an answer: exit 1 and says so", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    ntfy.subscribeMode = "close";
    const home = setUp(ntfy);
    const result = await runBin(["test", "--approve"], { env: home.env, killAfterMs: 40_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no verified answer: no answer \(stream-closed\)/);
  });

  it("test --approve with a sink without a token: exit 1, says to add one, publishes nothing", async () => {
    const ntfy = await startFakeNtfy();
    const home = setUp(ntfy);
    home.writeConfig({
      sinks: { phone: { type: "chat", service: "ntfy", url: `${ntfy.url}/requests` } },
      approveReplyTopic: REPLY,
    });
    const result = await runBin(["test", "--approve"], { env: home.env, killAfterMs: 40_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/needs an ntfy access token/);
    expect(ntfy.calls).toHaveLength(0);
  });

  // Issue 25: a token in the config does not make the server refuse strangers.
  it("doctor: a request topic anyone can read fails the check, naming the fix", async () => {
    const ntfy = await startFakeNtfy();
    const result = await runBin(["doctor", "--json"], {
      env: setUp(ntfy).env,
      killAfterMs: 40_000,
    });
    const check = (
      JSON.parse(result.stdout) as { check: string; status: string; detail: string; fix?: string }[]
    ).find((c) => c.check === "approve (phone)");
    expect(check).toMatchObject({ status: "fail" });
    expect(check?.detail).toMatch(/anyone can read the request topic of sinks\.phone/);
    const anonymous = ntfy.calls.filter(
      (c) => c.method === "GET" && c.headers.authorization === undefined,
    );
    expect(anonymous.map((c) => c.url)).toEqual(["/requests/json?poll=1&since=latest"]);
    expect(result.stdout).not.toContain(REPLY);
  });

  it("doctor: the reply topic answers with the token; a wrong token fails the check", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const good = await runBin(["doctor", "--json"], { env: setUp(ntfy).env, killAfterMs: 40_000 });
    const check = (out: string) =>
      (JSON.parse(out) as { check: string; status: string; detail: string }[]).find(
        (c) => c.check === "approve (phone)",
      );
    expect(check(good.stdout)).toMatchObject({ status: "ok" });
    expect(check(good.stdout)?.detail).toMatch(/the request topic refuses anonymous readers/);
    const poll = ntfy.calls.find((c) => c.method === "GET" && c.url.startsWith(`/${REPLY}/`))!;
    expect(poll.url).toBe(`/${REPLY}/json?poll=1&since=latest`);
    expect(poll.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const bad = await runBin(["doctor", "--json"], {
      env: setUp(ntfy, "tk_wrong123").env,
      killAfterMs: 40_000,
    });
    expect(check(bad.stdout)).toMatchObject({ status: "fail" });
    expect(check(bad.stdout)?.detail).toMatch(/HTTP 403/);
    expect(bad.stdout).not.toContain(REPLY);
  });
});
