// Issue 42's typed reply with the real Claude Code, interactive in a real tmux pane: its turn ends
// (Stop), the "waiting" message reaches a local Bot API, the phone replies "run the tests", sees
// exactly that text and presses Send, and the mock model receives it as the next user prompt.
// Every hook run exits 0 with nothing on stdout (the Stop hook does not wait for the reply).
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { ROOT } from "../helpers/run-bin.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";
import { waitUntil } from "../helpers/wait-until.js";
import { install, makeBox, paneSettled, pinnedClients, run, shq, traced } from "./harness.js";
import { startMockModel } from "./mock-model.js";

const pinned = pinnedClients<"claude-code">()["claude-code"];
const CLIENTS_DIR = process.env["HOOK_NOTIFY_CLIENTS"] ?? join(ROOT, ".cache", "clients");
const BIN = join(CLIENTS_DIR, `claude-code-${pinned.version}`, "node_modules", ".bin", pinned.bin);
const TOKEN = "123456789:AAreplyRealClientTestToken_0123456";
const CHAT = 717171;
const REPLY = "run the tests";

describe.runIf(existsSync(BIN))("real claude-code, typed reply", () => {
  it(`${pinned.package}@${pinned.version}: a Telegram reply to the waiting message is the next prompt`, async () => {
    const webhook = await startHttpServer([{ status: 200 }]);
    const model = await startMockModel("text");
    const bot = await startFakeTelegram({ token: TOKEN });
    const box = await makeBox(webhook);
    await install(box, "claude-code");
    const config = join(box.home, ".config", "hook-notify", "config.json");
    const current = JSON.parse(readFileSync(config, "utf8")) as { sinks: object };
    const phone = {
      type: "chat",
      service: "telegram",
      botToken: TOKEN,
      chatId: CHAT,
      apiUrl: bot.url,
      events: ["Stop"],
    };
    await writeFile(
      config,
      JSON.stringify({ sinks: { ...current.sinks, phone }, replySink: "phone" }),
    );
    const env = {
      ...box.env,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-ant-mock-key-0123456789",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      TERM: "xterm-256color",
    };
    const state = {
      hasCompletedOnboarding: true,
      theme: "dark",
      customApiKeyResponses: { approved: [env.ANTHROPIC_API_KEY.slice(-20)], rejected: [] },
      projects: { [box.project]: { hasTrustDialogAccepted: true } },
    };
    await writeFile(join(box.home, ".claude.json"), JSON.stringify(state));
    const socket = join(box.root, "tmux.sock");
    const tmux = (...args: string[]) =>
      run("tmux", ["-S", socket, "-f", "/dev/null", ...args], { env, timeoutMs: 30_000 });
    onTestFinished(async () => {
      await tmux("kill-server");
    });
    await tmux(
      "new-session",
      "-d",
      "-s",
      "agent",
      "-x",
      "120",
      "-y",
      "40",
      "-c",
      box.project,
      `${shq(BIN)} --permission-mode default 'say hi'`,
    );
    const waiting = await bot.waitForMessage(1, 120_000);
    const prompts = () => (model.bodies ?? []).filter((body) => body.includes(REPLY)).length;
    expect(prompts()).toBe(0);
    await paneSettled(tmux);
    bot.reply(waiting, REPLY);
    const confirm = await bot.waitForMessage(2, 60_000);
    expect(confirm.text).toContain(`\n\n${REPLY}`);
    bot.press(confirm, "⌨️ Send");
    await waitUntil(() => prompts() > 0, "the model to receive the reply", 120_000);
    const last = JSON.parse((model.bodies ?? []).find((body) => body.includes(REPLY))!) as {
      messages: { role: string; content: unknown }[];
    };
    const user = last.messages.filter((m) => m.role === "user").at(-1);
    expect(JSON.stringify(user?.content)).toContain(REPLY);
    // The second turn's hooks (its prompt and its Stop) have run; then /exit.
    await waitUntil(() => traced(box).length >= 4, "the second turn's hooks", 120_000);
    await tmux("send-keys", "-t", "agent", "/exit");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await tmux("send-keys", "-t", "agent", "Enter");
    const runs = traced(box);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.every((r) => r.code === 0 && r.stdoutBytes === 0)).toBe(true);
  }, 240_000);
});
