import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { detectClient, findGitRoot, gatherContext } from "../../src/pipeline/gather-context.js";
import { type EventContext } from "../../src/core/event-context.js";
import type { HookEvent } from "../../src/core/hook-event.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";
import { fixtureText } from "./event-fixtures.js";

const TRANSCRIPTS = join(import.meta.dirname, "..", "fixtures", "transcripts");
const CLAUDE_TRANSCRIPT = join(TRANSCRIPTS, "claude-code-session.jsonl");
const DROID_TRANSCRIPT = join(TRANSCRIPTS, "droid-session.jsonl");

async function tempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "hook-notify-context-")));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// A real repository: <tmp>/shop-api with `git init`, and a nested folder inside it.
async function gitProject(): Promise<{ root: string; nested: string }> {
  const root = join(await tempDir(), "shop-api");
  const nested = join(root, "packages", "server", "src");
  await mkdir(nested, { recursive: true });
  execFileSync("git", ["init", "--quiet", root]);
  return { root, nested };
}

const event = (fields: Partial<HookEvent> & Pick<HookEvent, "name">): HookEvent => ({
  raw: {},
  ...fields,
});

const noEnv = { env: {} };

describe("gatherContext project", () => {
  it("names the project after the git root, from a nested cwd", async () => {
    const { root, nested } = await gitProject();
    const context = gatherContext(event({ name: "Stop", cwd: nested }), {
      cwd: "/elsewhere",
      ...noEnv,
    });
    expect(context).toEqual({ project: "shop-api", projectDir: root });
  });

  it("accepts a .git file (worktrees, submodules)", async () => {
    const root = join(await tempDir(), "worktree-a");
    await mkdir(join(root, "lib"), { recursive: true });
    await writeFile(join(root, ".git"), "gitdir: /somewhere/.git/worktrees/a\n");
    expect(findGitRoot(join(root, "lib"))).toBe(root);
  });

  it("falls back to the cwd's own name outside a repository", async () => {
    const base = await tempDir();
    // Only meaningful when the temp folder is not inside a repository itself.
    expect(findGitRoot(base)).toBeUndefined();
    const cwd = join(base, "scratch-project");
    await mkdir(cwd);
    const context = gatherContext(event({ name: "Stop", cwd }), { cwd: "/x", ...noEnv });
    expect(context).toEqual({ project: "scratch-project", projectDir: cwd });
  });

  it("uses the process cwd when the event has none", async () => {
    const { root } = await gitProject();
    const context = gatherContext(event({ name: "Stop" }), { cwd: root, ...noEnv });
    expect(context.project).toBe("shop-api");
  });

  it("names a cwd that does not exist after its last segment", async () => {
    const cwd = join(await tempDir(), "gone", "shop-api");
    const context = gatherContext(event({ name: "Stop", cwd }), { cwd: "/", ...noEnv });
    expect(context.project).toBe("shop-api");
  });
});

describe("detectClient", () => {
  it.each([
    ["a ~/.factory transcript", "/home/dev/.factory/sessions/x.jsonl", {}, "droid"],
    ["a ~/.claude transcript", "/home/dev/.claude/projects/x.jsonl", {}, "claude-code"],
    ["a Windows .claude path", "C:\\Users\\dev\\.claude\\projects\\x.jsonl", {}, "claude-code"],
    [
      "the transcript before the env",
      "/h/.claude/p.jsonl",
      { FACTORY_PROJECT_DIR: "/p" },
      "claude-code",
    ],
    ["FACTORY_PROJECT_DIR", undefined, { FACTORY_PROJECT_DIR: "/p" }, "droid"],
    ["DROID_PROJECT_DIR", undefined, { DROID_PROJECT_DIR: "/p" }, "droid"],
    ["CLAUDE_PROJECT_DIR", undefined, { CLAUDE_PROJECT_DIR: "/p" }, "claude-code"],
    ["CLAUDECODE", "/tmp/t.jsonl", { CLAUDECODE: "1" }, "claude-code"],
    ["nothing to go on", "/tmp/t.jsonl", {}, undefined],
    ["empty env values", undefined, { CLAUDECODE: "", FACTORY_PROJECT_DIR: "" }, undefined],
  ])("%s", (_case, transcriptPath, env, client) => {
    const e = event({ name: "Stop", ...(transcriptPath ? { transcriptPath } : {}) });
    expect(detectClient(e, env)).toBe(client);
  });

  it("takes the --client hint over detection", () => {
    const e = event({ name: "Stop", cwd: "/", transcriptPath: "/h/.claude/x.jsonl" });
    expect(gatherContext(e, { cwd: "/", ...noEnv }, "droid").client).toBe("droid");
  });
});

describe("gatherContext session title and last message", () => {
  // Fields of the context that come from the event and the transcript (project aside).
  const facts = (c: EventContext): Omit<EventContext, "project" | "projectDir"> => {
    const rest: Partial<EventContext> = { ...c };
    delete rest.project;
    delete rest.projectDir;
    delete rest.turnStartedAt; // its own test below
    return rest;
  };

  it.each([
    [
      "Claude: the prompt, not the later tool result",
      CLAUDE_TRANSCRIPT,
      "2026-11-22T12:41:53.422Z",
    ],
    ["Droid: the last user message", DROID_TRANSCRIPT, "2026-11-22T12:41:55.513Z"],
  ])("turnStartedAt from the transcript (%s)", (_case, transcriptPath, at) => {
    const context = gatherContext(event({ name: "Stop", cwd: "/", transcriptPath }), {
      cwd: "/",
      ...noEnv,
    });
    expect(context.turnStartedAt).toBe(Date.parse(at));
  });

  it.each<
    [
      string,
      Partial<HookEvent> & Pick<HookEvent, "name">,
      Omit<EventContext, "project" | "projectDir">,
    ]
  >([
    [
      "Droid Stop: title from the session_start line",
      { name: "Stop", transcriptPath: DROID_TRANSCRIPT },
      { sessionTitle: "Refactor the checkout flow" },
    ],
    [
      "Claude Stop without last_assistant_message: the transcript's last text",
      { name: "Stop", transcriptPath: CLAUDE_TRANSCRIPT },
      { lastMessage: "All done after the tool ran." },
    ],
    [
      "last_assistant_message wins over the transcript",
      { name: "Stop", transcriptPath: CLAUDE_TRANSCRIPT, lastAssistantMessage: "From the hook" },
      { lastMessage: "From the hook" },
    ],
    [
      "SubagentStop reads the transcript too",
      { name: "SubagentStop", transcriptPath: CLAUDE_TRANSCRIPT },
      { lastMessage: "All done after the tool ran." },
    ],
    [
      "StopFailure reads the transcript too",
      { name: "StopFailure", transcriptPath: CLAUDE_TRANSCRIPT },
      { lastMessage: "All done after the tool ran." },
    ],
    [
      "Notification does not take the transcript's last message",
      { name: "Notification", transcriptPath: CLAUDE_TRANSCRIPT },
      {},
    ],
    [
      "SessionEnd does not either",
      { name: "SessionEnd", transcriptPath: DROID_TRANSCRIPT },
      { sessionTitle: "Refactor the checkout flow" },
    ],
    [
      "an empty last_assistant_message is dropped",
      { name: "Notification", lastAssistantMessage: "" },
      {},
    ],
  ])("%s", (_case, fields, expected) => {
    const context = gatherContext(event({ cwd: "/", ...fields }), { cwd: "/", ...noEnv });
    expect(facts(context)).toEqual(expected);
  });

  it("uses the Claude title lines, custom-title first, and the tail's message", async () => {
    const dir = await tempDir();
    const transcriptPath = join(dir, "session.jsonl");
    const lines = [
      { type: "summary", summary: "Old summary" },
      { type: "custom-title", customTitle: "Checkout rewrite" },
      { type: "ai-title", aiTitle: "Fix checkout totals" },
      {
        type: "assistant",
        message: { role: "assistant", content: [{ type: "text", text: "Done." }] },
      },
    ];
    await writeFile(transcriptPath, lines.map((l) => JSON.stringify(l)).join("\n"));
    const context = gatherContext(event({ name: "Stop", cwd: dir, transcriptPath }), {
      cwd: dir,
      ...noEnv,
    });
    expect(facts(context)).toEqual({ sessionTitle: "Checkout rewrite", lastMessage: "Done." });
  });

  it("reads a 5 MiB transcript by its edges: title at the head, message at the tail", async () => {
    const dir = await tempDir();
    const transcriptPath = join(dir, ".factory", "sessions", "big.jsonl");
    await mkdir(join(dir, ".factory", "sessions"), { recursive: true });
    const user = JSON.stringify({
      type: "message",
      message: { role: "user", content: "z".repeat(1023) },
    });
    const text = [
      JSON.stringify({ type: "session_start", title: "Huge session" }),
      ...Array.from({ length: 5 * 1024 }, () => user),
      JSON.stringify({ type: "message", message: { role: "assistant", content: "Finally done." } }),
    ].join("\n");
    expect(text.length).toBeGreaterThan(5 * 1024 * 1024);
    await writeFile(transcriptPath, text);
    const context = gatherContext(event({ name: "Stop", cwd: dir, transcriptPath }), {
      cwd: dir,
      ...noEnv,
    });
    expect(facts(context)).toEqual({
      client: "droid",
      sessionTitle: "Huge session",
      lastMessage: "Finally done.",
    });
  });

  it.each([
    ["a missing transcript", (dir: string) => join(dir, "missing.jsonl")],
    ["a directory instead of a file", (dir: string) => dir],
    ["a path under a file", (dir: string) => join(dir, "file.txt", "x.jsonl")],
  ])("survives %s", async (_case, pathIn) => {
    const dir = await tempDir();
    await writeFile(join(dir, "file.txt"), "not a folder");
    const e = event({ name: "Stop", cwd: dir, transcriptPath: pathIn(dir) });
    const context = gatherContext(e, { cwd: dir, ...noEnv });
    expect(facts(context)).toEqual({});
  });

  it("works on a captured payload whose paths do not exist here", () => {
    const event = parseEvent(fixtureText("claude-code/Stop.json")) as HookEvent;
    const context = gatherContext(event, { cwd: "/", env: {} });
    expect(context.client).toBe("claude-code");
    expect(context.lastMessage).toBe("All done after the tool ran.");
    expect(context.sessionTitle).toBeUndefined();
  });
});
