// The package as a Claude Code plugin (.claude-plugin/plugin.json, hooks/hooks.json): the pinned
// Claude Code loads it with --plugin-dir, runs one turn against the mock model, and its hooks
// (the package's own launcher, hooks-templates/launcher.sh, finding node on PATH) notify a local
// webhook. No `hook-notify install` runs: the plugin is the whole setup.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { removeHome, ROOT } from "../helpers/run-bin.js";
import { ANSWER, startMockModel } from "./mock-model.js";

const pinned = JSON.parse(readFileSync(join(import.meta.dirname, "pinned.json"), "utf8")) as {
  "claude-code": { version: string; bin: string };
};
const CLIENTS_DIR = process.env["HOOK_NOTIFY_CLIENTS"] ?? join(ROOT, ".cache", "clients");
const { version, bin: name } = pinned["claude-code"];
const bin = join(CLIENTS_DIR, `claude-code-${version}`, "node_modules", ".bin", name);
const isInstalled = existsSync(bin) && existsSync(join(ROOT, "dist", "cli.cjs"));

function run(file: string, args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(file, args, { env, cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    const killer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout });
    });
  });
}

describe.skipIf(!isInstalled)(`Claude Code ${version} with hook-notify as a plugin`, () => {
  it("notifies Stop from the plugin's hooks, with nothing installed into the settings", async () => {
    const webhook = await startHttpServer([{ status: 200 }]);
    const model = await startMockModel("text");
    const root = await mkdtemp(join(tmpdir(), "hook-notify-plugin-"));
    onTestFinished(() => removeHome(root));
    const home = join(root, "home");
    const project = join(root, "my project");
    await mkdir(project, { recursive: true });
    const config = join(home, ".config", "hook-notify", "config.json");
    await mkdir(dirname(config), { recursive: true });
    const sink = { type: "webhook", url: `${webhook.url}/agent`, events: ["Stop"] };
    await writeFile(config, JSON.stringify({ sinks: { hook: sink } }));
    const env = {
      HOME: home,
      PATH: [dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
      NO_PROXY: "127.0.0.1,localhost",
      LANG: "C.UTF-8",
      TERM: "dumb",
      HOOK_NOTIFY_WORKER_IDLE_SECONDS: "0",
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-ant-mock-key-0123456789",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
    };
    const result = await run(bin, ["-p", "say hi", "--plugin-dir", ROOT], env, project);
    expect(result.stdout).toContain(ANSWER);
    await webhook.waitForRequests(1, 60_000);
    const sent = JSON.parse(webhook.requests[0]?.body ?? "{}") as {
      data: { event: string; client: string };
    };
    expect(sent.data).toMatchObject({ event: "Stop", client: "claude-code" });
    expect(existsSync(join(home, ".claude", "settings.json"))).toBe(false);
  }, 240_000);
});
