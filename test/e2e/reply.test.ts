// A typed reply end to end, through the built binary: a stand-in agent in a real tmux pane runs
// the hook on Stop (as Claude Code runs it: the pane's process is the hook's parent) and then reads
// its terminal, writing each line it gets to a file. The worker sends the "waiting" message to a
// local Bot API and leaves a ticket; the reply listener (dist/worker.cjs reply) it starts shows the reply
// for confirmation, and the Send press types it into the pane. The hook itself returns at once.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { hasTmux } from "../helpers/real-tmux.js";
import { BIN, fixture, runBin, tempHome } from "../helpers/run-bin.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";
import { waitUntil, workerDone } from "../helpers/wait-until.js";

const TOKEN = "123456789:AAreplyEndToEndTestToken_012345678";
const CHAT = 616161;

// A home whose Telegram sink takes replies, and the event's payload in a file.
async function setUp(event: string) {
  const bot = await startFakeTelegram({ token: TOKEN });
  const home = tempHome();
  home.writeConfig({
    sinks: {
      phone: {
        type: "chat",
        service: "telegram",
        botToken: TOKEN,
        chatId: CHAT,
        apiUrl: bot.url,
      },
    },
    replySink: "phone",
  });
  const state = join(home.dir, "state", "hook-notify");
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, "approve.key"), `${"c".repeat(64)}\n`, { mode: 0o600 });
  chmodSync(join(state, "approve.key"), 0o600);
  const payload = join(home.dir, "stop.json");
  writeFileSync(payload, fixture(event));
  return { bot, home, payload };
}

describe.runIf(hasTmux && process.platform === "linux")("typed reply (built binary)", () => {
  // The end of a turn, and the idle prompt that says the agent still waits.
  it.each(["claude-code/Stop.json", "claude-code-read/Notification-idle_prompt.json"])(
    "after %s, types a confirmed Telegram reply into the waiting agent's pane, once",
    async (event) => {
      const { bot, home, payload } = await setUp(event);
      const typed = join(home.dir, "typed.txt");
      const done = join(home.dir, "hook-done");
      // The stand-in agent: runs the hook (timing it), then reads its terminal line by line.
      const agent = [
        `"${process.execPath}" "${BIN}" < "${payload}"; echo $? > "${done}"`,
        `while IFS= read -r line; do printf '%s\\n' "$line" >> "${typed}"; done`,
      ].join("; ");
      const socket = join(home.dir, "tmux.sock");
      const tmux = (...args: string[]) =>
        execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], {
          encoding: "utf8",
          env: home.env,
        });
      tmux("new-session", "-d", "-s", "agent", "-x", "120", "-y", "10", "sh", "-c", agent);
      onTestFinished(() => {
        try {
          tmux("kill-server");
        } catch {
          // Gone already.
        }
      });
      const waiting = await bot.waitForMessage(1, 60_000);
      await waitUntil(() => existsSync(done), "the hook to return");
      expect(readFileSync(done, "utf8").trim()).toBe("0");
      bot.reply(waiting, "run the tests");
      const confirm = await bot.waitForMessage(2, 60_000);
      expect(confirm.text).toContain("\n\nrun the tests");
      const send = confirm.reply_markup?.inline_keyboard[0]?.[0]?.callback_data ?? "";
      bot.press(confirm, "⌨️ Send");
      await waitUntil(() => existsSync(typed), "the reply to be typed");
      // The same press again (its buttons are gone from the message by now: a replay).
      bot.pressData(send, CHAT, confirm.message_id);
      await waitUntil(
        () =>
          home.logLines().some((line) => String(line.reason).startsWith("reply ignored: replay")),
        "the replayed press to be logged",
      );
      expect(readFileSync(typed, "utf8")).toBe("run the tests\n");
      const typedLine = home
        .logLines()
        .find((line) => String(line.reason).startsWith("reply typed"));
      expect(typedLine).toMatchObject({ outbox: "receipt", sink: "phone", text: "run the tests" });
      await workerDone(home);
    },
  );

  it("offers no reply for a notification that is not waiting for a prompt", async () => {
    const { bot, home, payload } = await setUp("claude-code/Notification-agent_needs_input.json");
    await runBin([], { input: readFileSync(payload, "utf8"), env: home.env });
    await bot.waitForMessage(1, 60_000);
    await workerDone(home);
    const folder = join(home.dir, "state", "hook-notify", "telegram");
    expect(existsSync(folder)).toBe(false);
    expect(home.logLines().filter((line) => line.outbox === "receipt")).toEqual([]);
  });
});
