import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { logCutShort } from "../../src/commands/safety-net.js";
import { startRecord } from "../../src/journal/append.js";
import type { HookRun } from "../../src/pipeline/run-hook.js";
import { testDeps } from "../helpers/sample-notification.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function home() {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-cut-"));
  dirs.push(dir);
  const deps = testDeps({ HOME: dir, XDG_STATE_HOME: join(dir, "state") }, () => 1_000_500);
  const log = join(dir, "state", "hook-notify", "log.ndjson");
  return { deps, log, lines: () => readFileSync(log, "utf8").trim().split("\n") };
}

// The safety net's log line: a run ended by the deadline (or a crash) still leaves one line.
describe("logCutShort", () => {
  it("writes one line with HOOK_DEADLINE, what the run knew, and how long it ran", () => {
    const { deps, log, lines } = home();
    const run: HookRun = {
      record: { ...startRecord(1_000_000), event: "Stop", project: "shop-api" },
    };
    logCutShort(run, deps, "HOOK_DEADLINE");
    expect(lines()).toHaveLength(1);
    const line = JSON.parse(lines()[0]!) as { error: { message: string } };
    expect(line).toMatchObject({
      event: "Stop",
      project: "shop-api",
      ms: 500,
      error: { code: "HOOK_DEADLINE" },
    });
    expect(line.error.message).toContain("--timeout");
    expect(statSync(log).mode & 0o777).toBe(0o600);
  });

  it("keeps an error the run already had, and masks the config's secrets", () => {
    const { deps, lines } = home();
    const secret = "https://hooks.slack.com/services/T0/B0/XSECRETX";
    const run = {
      record: {
        ...startRecord(1_000_000),
        error: { code: "SINK_TIMEOUT" as const, message: `slow: ${secret}` },
      },
      config: { secrets: [secret] },
    } as unknown as HookRun;
    logCutShort(run, deps, "INTERNAL");
    expect(lines()[0]).not.toContain("XSECRETX");
    expect(JSON.parse(lines()[0]!)).toMatchObject({ error: { code: "SINK_TIMEOUT" } });
  });
});
