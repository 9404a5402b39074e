// Telegram (tgram://… with apiUrl at a local stand-in) and Gotify (gotify://127.0.0.1:PORT/TOKEN)
// through the built binary: a Stop hook queues, the background worker delivers from the outbox,
// each stand-in gets exactly one well-formed request, agent text arrives as text, and no token
// is in the state folder, the log or --dry-run's output.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

const TG_TOKEN = "987654321:AAFcanaryTelegramTokenXyz_0123-abc";
const GOTIFY_TOKEN = "AcanaryGotify.Tok";
const AGENT_TEXT =
  "Done: _a_ *b* [c] (d) ~e~ > f # g + h - i = j | k {l} . m ! n \\ o " +
  "[Re-authenticate](https://evil.example/login) <b>bold</b> <script>alert(1)</script> & co";
const RESERVED = "_*[]()~`>#+-=|{}.!\\";

// MarkdownV2 as Telegram reads it; undefined when unescaped markup is left.
function readMarkdownV2(text: string): string | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? "";
    if (c === "\\") out += text[++i] ?? "";
    else if (RESERVED.includes(c)) return undefined;
    else out += c;
  }
  return out;
}

function filesUnder(dir: string): string[] {
  try {
    return (readdirSync(dir, { recursive: true }) as string[]).map((name) => join(dir, name));
  } catch {
    return [];
  }
}

function textOf(path: string): string {
  try {
    return readFileSync(path, "latin1");
  } catch {
    return ""; // a folder or a socket
  }
}

describe("Telegram and Gotify from a Stop hook", () => {
  it("each get one well-formed request from the worker; no token is kept or shown", async () => {
    const telegram = await startHttpServer([
      { status: 200, body: '{"ok":true,"result":{"message_id":1}}' },
    ]);
    const gotify = await startHttpServer([{ status: 200, body: '{"id":1}' }]);
    const home = tempHome();
    home.writeConfig({
      sinks: {
        tg: {
          type: "chat",
          service: "telegram",
          url: `tgram://${TG_TOKEN}/-100777`,
          apiUrl: telegram.url,
        },
        push: {
          type: "chat",
          service: "gotify",
          url: `gotify://127.0.0.1:${gotify.port}/${GOTIFY_TOKEN}`,
        },
      },
    });
    const input = fixture("claude-code/Stop.json", { last_assistant_message: AGENT_TEXT });
    const hook = await runBin([], { input, env: home.env });
    expect(hook).toMatchObject({ code: 0, stdout: "" });
    await telegram.waitForRequests(1, 30_000);
    await gotify.waitForRequests(1, 30_000);

    const tg = telegram.requests[0]!;
    expect(tg.url).toBe(`/bot${TG_TOKEN}/sendMessage`);
    const sent = JSON.parse(tg.body) as { chat_id: string; text: string; parse_mode: string };
    expect(sent).toMatchObject({ chat_id: "-100777", parse_mode: "MarkdownV2" });
    const lines = sent.text.split("\n");
    const body = readMarkdownV2(lines.slice(1, -1).join("\n"));
    expect(body?.replaceAll("\u200B", "")).toContain(AGENT_TEXT);

    const got = gotify.requests[0]!;
    expect(got.url).toBe("/message");
    expect(got.headers["x-gotify-key"]).toBe(GOTIFY_TOKEN);
    const { message } = JSON.parse(got.body) as { message: string };
    expect(message.replaceAll("\u200B", "")).toContain(AGENT_TEXT);

    const dryRun = await runBin(["--dry-run"], { input, env: home.env });
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toContain('"parse_mode":"MarkdownV2"');
    expect(dryRun.stdout).toContain('"target":"telegram chat -100777 via http://127.0.0.1:');
    expect(dryRun.stdout).toContain('"x-gotify-key":"***"');
    // Let the worker finish and leave before the folder is read.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(telegram.requests).toHaveLength(1);
    expect(gotify.requests).toHaveLength(1);
    const delivered = home.logLines().filter((line) => line["outbox"] === "delivered");
    expect(delivered.map((line) => [line["sink"], line["messageId"]]).sort()).toEqual([
      ["push", "1"],
      ["tg", "1"],
    ]);
    const state = filesUnder(join(home.dir, "state")).map(textOf).join("\n");
    expect(state).toContain("tg");
    for (const secret of [TG_TOKEN, TG_TOKEN.split(":")[1]!, GOTIFY_TOKEN]) {
      expect(state).not.toContain(secret);
      expect(dryRun.stdout + dryRun.stderr).not.toContain(secret);
    }
  }, 60_000);
});
