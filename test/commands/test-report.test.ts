// `hook-notify test`'s report: a sink left out for an unset ${VAR} is a row (named, with the
// variable, never a value), and failures that share a fix say that fix once.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runTest } from "../../src/commands/test-run.js";
import { resultLines, toReport, unsetReport } from "../../src/commands/test-report.js";
import { createStyle } from "../../src/style.js";
import { startHttpServer } from "../helpers/http-server.js";
import { testDeps } from "../helpers/sample-notification.js";

const plain = createStyle({ isTTY: false }, {});

function configFile(config: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-test-report-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = join(dir, "config.json");
  writeFileSync(file, JSON.stringify(config));
  return file;
}

describe("test's report", () => {
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

  it("says a fix shared by several failures once, and not again inside the error", () => {
    const failed = (sink: string, error: string, fix: string) => ({
      sink,
      type: "webhook",
      target: "t",
      ok: false,
      code: "SINK_NETWORK",
      error: `${sink}: ${error}`,
      fix,
    });
    const lines = resultLines(
      [
        failed("a", "refused. Check the URL.", "Check the URL."),
        failed("b", "refused.", "Check the URL."),
        failed("c", "timed out.", "Raise timeoutSeconds."),
      ],
      plain,
    );
    expect(lines.filter((line) => line === "  fix: Check the URL.")).toHaveLength(1);
    expect(lines.filter((line) => line.includes("Check the URL."))).toHaveLength(1);
    expect(lines).toContain("failed a: refused.");
    expect(lines).toContain("  fix: Raise timeoutSeconds.");
  });
});
