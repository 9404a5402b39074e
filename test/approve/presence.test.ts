// Presence first, with the real presence module (src/presence/probe.ts) and its fake X11 probe
// programs on PATH: away asks the phone, present leaves the dialog to the terminal at once.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runApprove, type ApproveRun } from "../../src/approve/run-approve.js";
import { startApproveRecord } from "../../src/approve/record.js";
import { textInput } from "../../src/input-source.js";
import { pressButton, startFakeNtfy, type FakeNtfy } from "../helpers/ntfy-server.js";
import { fixture, ROOT } from "../helpers/run-bin.js";
import { testDeps } from "../helpers/sample-notification.js";

const REQUESTS = "requests";
const TOKEN = "tk_presencetesttoken0123456789";

function deps(ntfy: FakeNtfy, activePid: number) {
  const home = mkdtempSync(join(tmpdir(), "hook-notify-presence-"));
  onTestFinished(() => {
    rmSync(home, { recursive: true, force: true });
  });
  const config = join(home, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      sinks: {
        phone: { type: "chat", service: "ntfy", url: `${ntfy.url}/${REQUESTS}`, token: TOKEN },
      },
      approveReplyTopic: "hn-reply-presence-0123456789abcdef",
      approveSeconds: 10,
    }),
  );
  mkdirSync(join(home, "state", "hook-notify"), { recursive: true });
  const key = join(home, "state", "hook-notify", "approve.key");
  writeFileSync(key, `${"c".repeat(64)}\n`);
  chmodSync(key, 0o600);
  const base = testDeps({
    HOME: home,
    XDG_STATE_HOME: join(home, "state"),
    HOOK_NOTIFY_CONFIG: config,
    DISPLAY: ":99",
    PATH: `${join(ROOT, "test", "fixtures", "presence-bin")}:${dirname(process.execPath)}`,
    FAKE_ACTIVE_PID: String(activePid),
    FAKE_IDLE_MS: "2000",
  });
  return { ...base, stdin: textInput(fixture("claude-code/PermissionRequest.json")) };
}

const newRun = (): ApproveRun => ({ record: startApproveRecord(Date.now()), secrets: [] });

describe('approveWhen "away" with the presence probes', () => {
  it("away (another window in front): the phone is asked and its answer printed", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const run = newRun();
    const done = runApprove(
      deps(ntfy, 999_999),
      { pid: process.pid, presenceTimeoutMs: 8_000 },
      run,
    );
    await pressButton(await ntfy.waitForMessage(REQUESTS), "Allow");
    await done;
    expect(run.output).toContain('"behavior":"allow"');
    expect(run.record.approval).toMatchObject({
      route: "phone",
      why: "away (xdotool)",
      presence: { state: "away", probe: "xdotool" },
    });
  }, 30_000);

  it("present (this session's terminal in front, recent input): the terminal asks at once", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const run = newRun();
    // The window in front belongs to this process, the session pid given to the probe.
    await runApprove(deps(ntfy, process.pid), { pid: process.pid, presenceTimeoutMs: 8_000 }, run);
    expect(run.output).toBeUndefined();
    expect(ntfy.calls).toHaveLength(0);
    expect(run.record.approval).toMatchObject({
      route: "terminal",
      presence: { state: "present" },
    });
  }, 30_000);
});
