import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { CommandHandler } from "../../src/settings/hook-schema.js";
import {
  planOpencodeInstall,
  planOpencodeUninstall,
  readPluginEntries,
  renderOpencodePlugin,
} from "../../src/settings/plan-opencode-file.js";
import { makeTree } from "./tree.js";

type Hooks = { event: (input: { event: object }) => Promise<void> };
type PluginModule = { HookNotify: (ctx: { directory: string }) => Promise<Hooks> };

const HOSTILE = `"; rm -rf ~ $(touch pwned) \`id\` '\n`;

// The plugin as install writes it, loaded the way OpenCode loads it (an ES module), running a
// real program that records its argv and stdin: plugins/hook-notify.mjs and hooks/record.sh.
async function loadPlugin(
  command: (root: string) => string,
): Promise<{ hooks: Hooks; log: string; root: string }> {
  const root = await makeTree();
  const log = join(root, "calls.ndjson");
  const recorder = join(root, "hooks", "record.sh");
  await mkdir(join(root, "hooks"), { recursive: true });
  await mkdir(join(root, "plugins"), { recursive: true });
  await writeFile(
    recorder,
    [
      `#!${process.execPath}`,
      'const { appendFileSync, readFileSync } = require("node:fs");',
      "const stdin = readFileSync(0, 'utf8');",
      `appendFileSync(${JSON.stringify(log)}, JSON.stringify({ args: process.argv.slice(2), stdin }) + "\\n");`,
      'process.stdout.write("ignored output");',
      "process.exit(3);",
      "",
    ].join("\n"),
  );
  await chmod(recorder, 0o755);
  const handler: CommandHandler = {
    type: "command",
    command: command(root),
    args: ["--client", "opencode", "--timeout", "5"],
    timeout: 5,
  };
  const desired = new Map([
    ["session.idle", [handler]],
    ["permission.asked", [handler]],
    ["session.error", [handler]],
  ]);
  const file = join(root, "plugins", "hook-notify.mjs");
  await writeFile(file, renderOpencodePlugin(desired));
  const plugin = (await import(pathToFileURL(file).href)) as PluginModule;
  return { hooks: await plugin.HookNotify({ directory: "/work/my project" }), log, root };
}

async function calls(log: string): Promise<{ args: string[]; stdin: Record<string, unknown> }[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const call = JSON.parse(line) as { args: string[]; stdin: string };
      return { args: call.args, stdin: JSON.parse(call.stdin) as Record<string, unknown> };
    });
}

const S = "ses_1";
const assistant = {
  type: "message.updated",
  properties: { sessionID: S, info: { id: "msg_a", role: "assistant" } },
};
const text = (body: string) => ({
  type: "message.part.updated",
  properties: { sessionID: S, part: { type: "text", messageID: "msg_a", text: body } },
});
const idle = { type: "session.idle", properties: { sessionID: S } };

describe("OpenCode plugin (as written by install, run as OpenCode runs it)", () => {
  it("runs the entry's argv with the event as JSON on stdin; agent text never reaches the argv", async () => {
    const { hooks, log, root } = await loadPlugin((dir) => join(dir, "hooks", "record.sh"));
    await hooks.event({ event: { type: "session.created", properties: { sessionID: S } } });
    await hooks.event({ event: assistant });
    await hooks.event({ event: text(HOSTILE) });
    await hooks.event({ event: idle });
    const [call, ...rest] = await calls(log);
    expect(rest).toEqual([]);
    expect(call!.args).toEqual(["--client", "opencode", "--timeout", "5"]);
    expect(call!.stdin).toEqual({
      ...idle,
      directory: "/work/my project",
      last_assistant_message: HOSTILE,
    });
    expect(await readFile(join(root, "plugins", "hook-notify.mjs"), "utf8")).not.toContain(
      "rm -rf",
    );
  });

  it("finds a relative program beside the plugin file (the project's wrapper)", async () => {
    const { hooks, log } = await loadPlugin(() => "../hooks/record.sh");
    await hooks.event({
      event: { type: "permission.asked", properties: { sessionID: S, permission: "bash" } },
    });
    expect((await calls(log)).map((c) => c.stdin["type"])).toEqual(["permission.asked"]);
  });

  it("passes session.error on and skips the idle that follows it until the session is busy again", async () => {
    const { hooks, log } = await loadPlugin((dir) => join(dir, "hooks", "record.sh"));
    await hooks.event({
      event: { type: "session.error", properties: { sessionID: S, error: { name: "APIError" } } },
    });
    await hooks.event({ event: idle });
    await hooks.event({ event: idle });
    await hooks.event({
      event: { type: "session.status", properties: { sessionID: S, status: { type: "busy" } } },
    });
    await hooks.event({ event: idle });
    expect((await calls(log)).map((c) => c.stdin["type"])).toEqual([
      "session.error",
      "session.idle",
    ]);
  });

  // Issue 25: the plugin lives as long as OpenCode; what it remembers must not grow forever.
  it("forgets the oldest assistant messages and sessions past its bound, and still works", async () => {
    const { hooks, log } = await loadPlugin((dir) => join(dir, "hooks", "record.sh"));
    const message = (id: string, session = S) => ({
      type: "message.updated",
      properties: { sessionID: session, info: { id, role: "assistant" } },
    });
    const part = (id: string, session: string, body: string) => ({
      type: "message.part.updated",
      properties: { sessionID: session, part: { type: "text", messageID: id, text: body } },
    });
    await hooks.event({ event: message("msg_old") });
    for (let i = 0; i < 1_500; i++) await hooks.event({ event: message(`msg_${i}`) });
    await hooks.event({ event: part("msg_old", S, "too old to be known") });
    await hooks.event({ event: idle });
    await hooks.event({ event: message("msg_new", "ses_old") });
    await hooks.event({ event: part("msg_new", "ses_old", "forgotten with its session") });
    for (let i = 0; i < 1_500; i++) {
      await hooks.event({ event: message(`m_${i}`, `ses_${i}`) });
      await hooks.event({ event: part(`m_${i}`, `ses_${i}`, "x") });
    }
    await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_old" } } });
    await hooks.event({ event: part("m_1499", "ses_1499", "the newest is kept") });
    await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_1499" } } });
    const said = (await calls(log)).map((c) => c.stdin["last_assistant_message"]);
    expect(said).toEqual([undefined, undefined, "the newest is kept"]);
  });

  // Kilo shows "Initializing snapshot…" as a text part of the answer while its snapshot is slow
  // (more often on a loaded machine), then removes that part: the answer is what remains.
  it("takes the newest text part still there: one removed again is not the answer", async () => {
    const { hooks, log } = await loadPlugin((dir) => join(dir, "hooks", "record.sh"));
    const part = (id: string, body: string) => ({
      type: "message.part.updated",
      properties: { sessionID: S, part: { id, type: "text", messageID: "msg_a", text: body } },
    });
    await hooks.event({ event: assistant });
    await hooks.event({ event: part("prt_answer", "All") });
    await hooks.event({ event: part("prt_progress", "⠋ Initializing snapshot…") });
    await hooks.event({ event: part("prt_answer", "All done.") });
    await hooks.event({ event: part("prt_progress", "⠙ Initializing snapshot…") });
    await hooks.event({
      event: {
        type: "message.part.removed",
        properties: { sessionID: S, messageID: "msg_a", partID: "prt_progress" },
      },
    });
    await hooks.event({ event: idle });
    expect((await calls(log)).map((c) => c.stdin["last_assistant_message"])).toEqual(["All done."]);
  });

  it("never throws into OpenCode, even when the program is missing", async () => {
    const { hooks } = await loadPlugin((dir) => join(dir, "missing", "hook-notify"));
    await expect(hooks.event({ event: idle })).resolves.toBeUndefined();
    await expect(hooks.event({ event: {} })).resolves.toBeUndefined();
  });
});

describe("the plugin file's plan", () => {
  const handler: CommandHandler = {
    type: "command",
    command: "hook-notify",
    args: ["--client", "opencode"],
    timeout: 10,
  };
  const ours = renderOpencodePlugin(new Map([["session.idle", [handler]]]));

  it("reads back only the entries of a file hook-notify wrote", () => {
    expect(readPluginEntries(ours)).toEqual({
      "session.idle": { command: ["hook-notify", "--client", "opencode"], timeout: 10 },
    });
    expect(readPluginEntries("export const Mine = async () => ({});")).toBeUndefined();
    const foreign = ours.replace('"hook-notify"', '"curl"');
    expect(readPluginEntries(foreign)).toBeUndefined();
  });

  // Issue 25: re-running install dropped the user's own arguments from the argv.
  it("an update keeps the arguments the user added to an entry, and is then stable", () => {
    const mine = ours.replace(
      '["hook-notify","--client","opencode"]',
      '["hook-notify","--client","opencode","--config","/home/me/hn.json","--timeout","5"]',
    );
    const desired = renderOpencodePlugin(
      new Map([
        ["session.idle", [{ ...handler, args: ["--client", "opencode", "--timeout", "15"] }]],
      ]),
    );
    const updated = planOpencodeInstall(mine, desired, "p");
    expect(readPluginEntries(updated.next ?? "")).toEqual({
      "session.idle": {
        command: [
          "hook-notify",
          "--client",
          "opencode",
          "--timeout",
          "15",
          "--config",
          "/home/me/hn.json",
        ],
        timeout: 10,
      },
    });
    expect(planOpencodeInstall(updated.next, desired, "p")).toMatchObject({ summary: [] });
  });

  it("adds, keeps, updates; refuses a stranger's file; uninstall removes the file", () => {
    expect(planOpencodeInstall(undefined, ours, "p").summary).toEqual(["session.idle: added"]);
    expect(planOpencodeInstall(ours, ours, "p")).toMatchObject({ next: ours, summary: [] });
    const theirs = "export const Mine = 1;\n";
    expect(planOpencodeInstall(theirs, ours, "p")).toMatchObject({
      next: theirs,
      conflicts: [expect.stringContaining("did not write")],
    });
    expect(planOpencodeUninstall(ours, undefined, "p")).toMatchObject({
      next: undefined,
      summary: ["session.idle: removed"],
    });
    expect(planOpencodeUninstall(theirs, undefined, "p").conflicts).toHaveLength(1);
  });
});
