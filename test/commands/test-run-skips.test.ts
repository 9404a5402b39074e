// `hook-notify test` skips what route skips for being switched off (one rule, pipeline/route.ts),
// and lists a sink left out for an unset ${VAR} (its variable named, never a value).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runTest } from "../../src/commands/test-run.js";
import { toReport, unsetReport } from "../../src/commands/test-report.js";
import { startHttpServer } from "../helpers/http-server.js";
import { switchedOff } from "../../src/pipeline/route.js";
import { testDeps } from "../helpers/sample-notification.js";

function configFile(config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-test-run-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe("runTest and route share the switched-off rule", () => {
  it.each([
    [{ enabled: false, sinks: { hook: { type: "webhook", url: "http://127.0.0.1:9/x" } } }],
    [{ sinks: { hook: { type: "webhook", url: "http://127.0.0.1:9/x", enabled: false } } }],
  ])("%j: not sent, as route would not send it", async (config) => {
    const configPath = configFile(config);
    const deps = testDeps({ HOME: tmpdir() });
    const result = await runTest(deps, { event: "Stop", failure: false, configPath });
    const [row] = result.rows;
    expect(row?.outcome).toBeUndefined();
    expect(row?.skipped).toBe("turned off (enabled: false)");
    expect(row && switchedOff(row.entry, result.config.value)).toBeDefined();
  });

  it("lists a sink whose ${VAR} is unset as skipped, with the variable's name only", async () => {
    const server = await startHttpServer();
    onTestFinished(() => server.close());
    const configPath = configFile({
      sinks: {
        hook: {
          type: "webhook",
          url: `${server.url}/hook`,
          headers: { authorization: "Bearer ${HOOK_SECRET}" },
        },
        team: { type: "chat", service: "slack", url: "${SLACK_WEBHOOK_URL}" },
        ok: { type: "webhook", url: `${server.url}/ok` },
      },
    });
    const deps = testDeps({ HOME: tmpdir(), HOOK_SECRET: "s3cr3t-value-xyz" });
    const result = await runTest(deps, { event: "Stop", failure: false, configPath });
    const reports = [...result.rows.map(toReport), ...result.unset.map(unsetReport)];
    expect(reports.map((r) => r.sink)).toEqual(["hook", "ok", "team"]);
    expect(reports[2]).toEqual({
      sink: "team",
      target: "",
      ok: false,
      skipped: "left out while ${SLACK_WEBHOOK_URL} is not set",
      unset: ["SLACK_WEBHOOK_URL"],
    });
    expect(JSON.stringify(reports)).not.toContain("s3cr3t-value-xyz");
    expect(server.requests).toHaveLength(2);
    const only = await runTest(deps, { event: "Stop", failure: false, configPath, sink: "team" });
    expect(only.unknownSink).toBeUndefined();
    expect(only.unset).toEqual([{ sink: "team", variables: ["SLACK_WEBHOOK_URL"] }]);
  });
});
