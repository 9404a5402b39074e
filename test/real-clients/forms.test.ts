// Issue 42's forms with the real Claude Code (print mode, after install --approve): an MCP server
// (test/fixtures/mcp/forms-server.mjs, stdio) whose tool asks for a form, a mock model that calls
// that tool, and a local Bot API as the phone. The phone gets the form's choices as buttons,
// presses one, and the MCP server receives exactly that value as the accepted content; the client
// shows no form. And "Let it retry": auto mode (its check answered by the mock with a block)
// blocks a force push, the PermissionDenied entry asks the phone, the phone presses the button,
// and the model's next request carries the client's note that it may retry; the plain "blocked"
// notification still goes.
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
  CLAUDE_MCP_ENV,
  claudeEnv,
  install,
  makeBox,
  PHONE_BOT_TOKEN,
  PHONE_CHAT,
  pinnedClients,
  paneSettled,
  run,
  shq,
  skipClaudeWelcome,
  startTmux,
  traced,
  workerDone,
} from "./harness.js";
import { ANSWER, FORM_TEXT_TOOL, FORM_TOOL, startMockModel } from "./mock-model.js";
import { retryJson } from "../../src/approve/retry.js";
import { waitUntil } from "../helpers/wait-until.js";

const pinned = pinnedClients<"claude-code">()["claude-code"];
const CLIENTS_DIR = process.env["HOOK_NOTIFY_CLIENTS"] ?? join(ROOT, ".cache", "clients");
const BIN = join(CLIENTS_DIR, `claude-code-${pinned.version}`, "node_modules", ".bin", pinned.bin);
const SERVER = join(import.meta.dirname, "..", "fixtures", "mcp", "forms-server.mjs");

describe.runIf(existsSync(BIN))("real claude-code, forms", () => {
  it(`${pinned.package}@${pinned.version}: an MCP server's form answered on the phone: the server gets the choice`, async () => {
    const { box, model, bot, received, running } = await startFormTurn("form", FORM_TOOL);
    const form = await bot.waitForMessage(1, 120_000);
    expect(form.text).toMatch(
      /^Claude Code: the MCP server forms asks you\nWhere should this deploy go\? \(Target\)\n1\. Staging\n2\. Production\n3\. Canary\n/,
    );
    bot.press(form, "Production");
    const answer = elicitationAnswerJson(
      { field: "target", values: ["staging", "production", "canary"] },
      1,
    );
    await expectFormTurn({ box, model, received, running }, { target: "production" }, answer);
    // The log says who answered what, when and from where.
    const log = await run(process.execPath, [HOOK_NOTIFY, "--no-color", "log"], { env: box.env });
    expect(log.stdout).toMatch(
      new RegExp(`answered "Production" from the phone via telegram \\(user ${PHONE_CHAT}\\) at `),
    );
  }, 240_000);

  it(`${pinned.package}@${pinned.version}: an MCP form's text field answered by a Telegram reply: the server gets the text`, async () => {
    const { box, model, bot, received, running } = await startFormTurn("form-text", FORM_TEXT_TOOL);
    const form = await bot.waitForMessage(1, 120_000);
    expect(form.text).toContain("What goes in the release note? (Note) Reply to this message");
    bot.reply(form, "Faster deploys");
    const answer = elicitationAnswerJson({ field: "note", values: [] }, "Faster deploys");
    await expectFormTurn({ box, model, received, running }, { note: "Faster deploys" }, answer);
  }, 240_000);

  it(`${pinned.package}@${pinned.version}: auto mode blocks an action, "Let it retry" on the phone: the model is told it may retry`, async () => {
    const webhook = await startHttpServer([{ status: 200 }]);
    const model = await startMockModel("blocked");
    const bot = await startFakeTelegram({ token: PHONE_BOT_TOKEN });
    const box = await makeBox(webhook);
    await addTelegramPhone(box, bot);
    await install(box, "claude-code", true, ["--retry"]);
    // Auto mode's check asks the loopback model instead of the vendor's server.
    const env = {
      ...claudeEnv(box, model),
      TERM: "xterm-256color",
      CLAUDE_CODE_AUTO_MODE_SERVER: "0",
    };
    await skipClaudeWelcome(box);
    const tmux = await startTmux(box, env, `${shq(BIN)} --permission-mode auto 'push it'`);
    const asked = await bot.waitForMessage(1, 120_000);
    expect(asked.text).toMatch(/^Claude Code: auto mode blocked Bash\nAuto mode blocked it: /);
    expect(asked.text).toContain("git push --force origin main");
    bot.press(asked, "Let it retry");
    // 2.1.332 keeps "The PermissionDenied hook indicated you may retry this tool call." in the
    // transcript and tells the model so, in a reminder beside the refusal.
    const told = "the PermissionDenied hook set up for this session allows one more try";
    const tells = () => (model.bodies ?? []).some((body) => body.includes(told));
    await waitUntil(tells, "the model to read that it may retry", 120_000);
    // The plain notification of the block went as before (the webhook), and the turn ended.
    await webhook.waitForRequests(2, 120_000);
    await paneSettled(tmux);
    await tmux("send-keys", "-t", "agent", "/exit");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await tmux("send-keys", "-t", "agent", "Enter");
    await webhook.waitForRequests(3, 120_000);
    await workerDone(box);
    const events = webhook.requests.map(
      (r) => (JSON.parse(r.body) as { data: { event: string } }).data.event,
    );
    expect(events).toContain("PermissionDenied");
    const printed = traced(box).filter((r) => r.stdoutBytes > 0);
    expect(printed.map((r) => r.stdoutBytes)).toEqual([Buffer.byteLength(`${retryJson()}\n`)]);
    expect(traced(box).every((r) => r.code === 0)).toBe(true);
    const log = await run(process.execPath, [HOOK_NOTIFY, "--no-color", "log"], { env: box.env });
    expect(log.stdout).toMatch(/answered "Let it retry" from the phone via telegram/);
  }, 240_000);
});

// install --approve with a Telegram phone, the forms MCP server registered, and Claude Code in
// print mode whose mock model calls `tool` (allowed, as a person allows it once).
async function startFormTurn(behaviour: "form" | "form-text", tool: string) {
  const webhook = await startHttpServer([{ status: 200 }]);
  const model = await startMockModel(behaviour);
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
  const env = { ...claudeEnv(box, model), ...CLAUDE_MCP_ENV };
  const args = ["-p", "do it", "--allowedTools", tool];
  const running = run(BIN, args, { env, cwd: box.project, timeoutMs: 180_000 });
  return { box, model, bot, received, running };
}

// The turn ended; the server got `content` accepted, the model read it, and only approve printed,
// once: `answer`.
async function expectFormTurn(
  turn: Pick<Awaited<ReturnType<typeof startFormTurn>>, "box" | "model" | "received" | "running">,
  content: Record<string, string>,
  answer: string,
): Promise<void> {
  const result = await turn.running;
  expect(result.stdout).toContain(ANSWER);
  expect(result.code).toBe(0);
  expect(readFileSync(turn.received, "utf8")).toBe(
    `${JSON.stringify({ action: "accept", content })}\n`,
  );
  const [[key, value]] = Object.entries(content) as [[string, string]];
  const read = `\\"${key}\\":\\"${value}\\"`;
  expect((turn.model.bodies ?? []).some((b) => b.includes(read))).toBe(true);
  await workerDone(turn.box);
  const printed = traced(turn.box).filter((r) => r.stdoutBytes > 0);
  expect(printed.map((r) => r.stdoutBytes)).toEqual([Buffer.byteLength(`${answer}\n`)]);
  expect(traced(turn.box).every((r) => r.code === 0)).toBe(true);
}
