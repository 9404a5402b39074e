// Issue 42's forms with the real Claude Code (print mode, after install --approve): an MCP server
// (forms-server.mjs, stdio) whose tool asks for a form, a mock model that calls that tool, and a
// local Bot API as the phone. The phone gets the form's choices as buttons, presses one, and the
// MCP server receives exactly that value as the accepted content; the client shows no form.
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { elicitationAnswerJson } from "../../src/approve/elicitation.js";
import { startHttpServer } from "../helpers/http-server.js";
import { BIN as HOOK_NOTIFY, ROOT } from "../helpers/run-bin.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";
import {
  addTelegramPhone,
  install,
  makeBox,
  PHONE_BOT_TOKEN,
  PHONE_CHAT,
  pinnedClients,
  run,
  traced,
  workerDone,
} from "./harness.js";
import { ANSWER, FORM_TOOL, startMockModel } from "./mock-model.js";

const pinned = pinnedClients<"claude-code">()["claude-code"];
const CLIENTS_DIR = process.env["HOOK_NOTIFY_CLIENTS"] ?? join(ROOT, ".cache", "clients");
const BIN = join(CLIENTS_DIR, `claude-code-${pinned.version}`, "node_modules", ".bin", pinned.bin);
const SERVER = join(import.meta.dirname, "forms-server.mjs");

describe.runIf(existsSync(BIN))("real claude-code, forms", () => {
  it(`${pinned.package}@${pinned.version}: an MCP server's form answered on the phone: the server gets the choice`, async () => {
    const webhook = await startHttpServer([{ status: 200 }]);
    const model = await startMockModel("form");
    const bot = await startFakeTelegram({ token: PHONE_BOT_TOKEN });
    const box = await makeBox(webhook);
    await addTelegramPhone(box, bot);
    await install(box, "claude-code", true);
    const received = join(box.root, "elicitation.ndjson");
    const server = { type: "stdio", command: process.execPath, args: [SERVER, received] };
    await writeFile(
      join(box.home, ".claude.json"),
      JSON.stringify({ mcpServers: { forms: server } }),
    );
    const env = {
      ...box.env,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-ant-mock-key-0123456789",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      // Print mode: wait for the server, and list its tool with the others (no tool search).
      MCP_CONNECTION_NONBLOCKING: "false",
      ENABLE_TOOL_SEARCH: "false",
    };
    const args = ["-p", "deploy it", "--allowedTools", FORM_TOOL];
    const running = run(BIN, args, { env, cwd: box.project, timeoutMs: 180_000 });
    const form = await bot.waitForMessage(1, 120_000);
    expect(form.text).toMatch(
      /^Claude Code: the MCP server forms asks you\nWhere should this deploy go\? \(Target\)\n1\. Staging\n2\. Production\n3\. Canary\n/,
    );
    bot.press(form, "Production");
    const result = await running;
    expect(result.stdout).toContain(ANSWER);
    expect(result.code).toBe(0);
    // The server got the person's choice as the accepted content, and the model read it.
    expect(readFileSync(received, "utf8")).toBe(
      `${JSON.stringify({ action: "accept", content: { target: "production" } })}\n`,
    );
    expect((model.bodies ?? []).some((b) => b.includes('\\"target\\":\\"production\\"'))).toBe(
      true,
    );
    // Only approve printed, once: the form's answer.
    await workerDone(box);
    const printed = traced(box).filter((r) => r.stdoutBytes > 0);
    const answer = elicitationAnswerJson(
      { field: "target", values: ["staging", "production", "canary"] },
      1,
    );
    expect(printed.map((r) => r.stdoutBytes)).toEqual([Buffer.byteLength(`${answer}\n`)]);
    expect(traced(box).every((r) => r.code === 0)).toBe(true);
    // The log says who answered what, when and from where.
    const log = await run(process.execPath, [HOOK_NOTIFY, "--no-color", "log"], { env: box.env });
    expect(log.stdout).toMatch(
      new RegExp(`answered "Production" from the phone via telegram \\(user ${PHONE_CHAT}\\) at `),
    );
  }, 240_000);
});
