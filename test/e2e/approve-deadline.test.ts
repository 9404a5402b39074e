// `approve` and `test --approve` end when they promised (issue 25, item 1): the built binary
// against a local ntfy that never answers, trickles a byte at a time, or hangs up, on the
// subscription and on the publish, with approveSeconds 8 (the lowest it takes). The wait is
// approveSeconds (at most --timeout less 5 s); the
// run ends within 2 s of it, through its own deadline (the log says "timeout"), never through the
// safety net (HOOK_DEADLINE) and never later.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, runBin, tempHome, type BinResult, type TempHome } from "../helpers/run-bin.js";
import { startFakeNtfy, type FakeNtfy } from "../helpers/ntfy-server.js";

const TOKEN = "tk_deadlinetesttoken012345678";
const REPLY = "hn-reply-deadline-0123456789abcd";
const SECONDS = 8;
const SLACK_MS = 2_000;

type Mode = { subscribe: FakeNtfy["subscribeMode"] } | { publish: FakeNtfy["publishMode"] };

const MODES: [string, Mode][] = [
  ["a subscription never answered", { subscribe: "hang" }],
  ["a subscription that trickles", { subscribe: "trickle" }],
  ["a subscription that hangs up", { subscribe: "reset" }],
  ["a publish never answered", { publish: "hang" }],
  ["a publish that trickles", { publish: "trickle" }],
];

async function setUp(mode: Mode): Promise<{ ntfy: FakeNtfy; home: TempHome }> {
  const ntfy = await startFakeNtfy({ token: TOKEN });
  if ("subscribe" in mode) ntfy.subscribeMode = mode.subscribe;
  else ntfy.publishMode = mode.publish;
  const home = tempHome();
  home.writeConfig({
    sinks: { phone: { type: "chat", service: "ntfy", url: `${ntfy.url}/requests`, token: TOKEN } },
    approveReplyTopic: REPLY,
    approveWhen: "always",
    approveSeconds: SECONDS,
  });
  const dir = join(home.dir, "state", "hook-notify");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "approve.key"), `${"c".repeat(64)}\n`);
  chmodSync(join(dir, "approve.key"), 0o600);
  return { ntfy, home };
}

interface LoggedApproval {
  error?: { code: string; message: string };
  approval: { fallback?: string };
}

function lastRecord(home: TempHome): LoggedApproval {
  const line = home.logLines().findLast((l) => l.event === "PermissionRequest");
  return line as unknown as LoggedApproval;
}

// What one run shows, per server: compared as a whole, so a failure names the server.
function outcome(result: BinResult, home: TempHome, limitMs: number) {
  const record = lastRecord(home);
  return {
    code: result.code,
    stdout: result.stdout,
    inTime: result.ms < limitMs ? "yes" : `no: ${Math.round(result.ms)} ms`,
    // Every way the wait can end is "timeout" or a hang-up, never the safety net.
    fallback: record.approval.fallback === "stream-closed" ? "timeout" : record.approval.fallback,
    safetyNet: record.error?.code === "HOOK_DEADLINE",
    // approve never retries: its log must not promise a retry, and says the time was up.
    promisesRetry: /retried/.test(JSON.stringify(record)),
    says:
      record.error === undefined || /^time was up/.test(record.error.message)
        ? "ok"
        : record.error.message,
  };
}

// The five servers at once (each run mostly waits), each in its own HOME.
async function eachMode(
  run: (home: TempHome) => Promise<BinResult>,
  limitMs: number,
): Promise<Record<string, ReturnType<typeof outcome>>> {
  const runs = await Promise.all(
    MODES.map(async ([name, mode]) => {
      const { home } = await setUp(mode);
      const result = await run(home);
      return [name, outcome(result, home, limitMs)] as const;
    }),
  );
  return Object.fromEntries(runs);
}

// approve: exit 0 and nothing on stdout; test --approve: exit 1 (it may have said "Sent …").
function expected(code: 0 | 1) {
  const stdout: unknown = code === 0 ? "" : expect.any(String);
  const each = {
    code,
    stdout,
    inTime: "yes",
    fallback: "timeout",
    safetyNet: false,
    promisesRetry: false,
    says: "ok",
  };
  return Object.fromEntries(MODES.map(([name]) => [name, each]));
}

const permissionRequest = fixture("claude-code/PermissionRequest.json");

describe("approve ends at approveSeconds (built binary, hostile local ntfy)", () => {
  it("without --timeout: ends within approveSeconds + 2 s, whatever the server does", async () => {
    const seen = await eachMode(
      (home) =>
        runBin(["approve"], { input: permissionRequest, env: home.env, killAfterMs: 60_000 }),
      SECONDS * 1000 + SLACK_MS,
    );
    expect(seen).toEqual(expected(0));
  }, 30_000);

  // --timeout 10 leaves a 5 s wait; the safety net would fire at 7 s.
  it("with --timeout 10: ends within 5 s + 2 s, by its own deadline", async () => {
    const seen = await eachMode(
      (home) =>
        runBin(["approve", "--timeout", "10"], {
          input: permissionRequest,
          env: home.env,
          killAfterMs: 60_000,
        }),
      5_000 + SLACK_MS,
    );
    expect(seen).toEqual(expected(0));
  }, 30_000);

  it("test --approve: exit 1 within approveSeconds + 2 s", async () => {
    const seen = await eachMode(
      (home) => runBin(["test", "--approve"], { env: home.env, killAfterMs: 60_000 }),
      SECONDS * 1000 + SLACK_MS,
    );
    expect(seen).toEqual(expected(1));
  }, 30_000);
});
