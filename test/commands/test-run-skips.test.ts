// `hook-notify test` skips what route skips for being switched off (one rule, pipeline/route.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { runTest } from "../../src/commands/test-run.js";
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
});
