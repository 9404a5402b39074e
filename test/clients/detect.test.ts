import { describe, expect, it } from "vitest";
import { clientOfPayload, clientOfRun } from "../../src/clients/detect.js";

describe("clientOfPayload", () => {
  it.each([
    ["Codex's notify argument", { type: "agent-turn-complete", "thread-id": "t" }, "codex"],
    ["OpenCode's bus event", { type: "session.idle", properties: { sessionID: "s" } }, "opencode"],
    ["Gemini's AfterAgent", { hook_event_name: "AfterAgent" }, "gemini"],
    [
      "Qwen Code's transcript folder",
      { hook_event_name: "Stop", transcript_path: "/h/.qwen/projects/p/chats/s.jsonl" },
      "qwen-code",
    ],
    [
      "Auggie's conversation and workspace roots",
      { hook_event_name: "Stop", conversation_id: "c", workspace_roots: ["/p"] },
      "auggie",
    ],
    ["a dotted type without properties", { type: "session.idle" }, undefined],
    ["Claude Code's Stop (several clients send it)", { hook_event_name: "Stop" }, undefined],
  ])("%s", (_case, raw, client) => {
    expect(clientOfPayload(raw)).toBe(client);
  });
});

describe("clientOfRun", () => {
  it.each([
    [
      "Gemini's own variable beside the Claude one it sets",
      { GEMINI_SESSION_ID: "g", CLAUDE_PROJECT_DIR: "/p" },
      "gemini",
    ],
    [
      "Droid's variable beside Claude Code's",
      { FACTORY_PROJECT_DIR: "/p", CLAUDECODE: "1" },
      "droid",
    ],
    [
      "Qwen Code's own variable beside the Claude one it also sets (alsoSets)",
      { CLAUDE_PROJECT_DIR: "/p", QWEN_PROJECT_DIR: "/p" },
      "qwen-code",
    ],
    ["Kilo's KILO_PID (its plugin's child inherits it)", { KILO: "1", KILO_PID: "42" }, "kilo"],
    ["Claude Code's alone", { CLAUDE_PROJECT_DIR: "/p" }, "claude-code"],
    ["an empty value", { GEMINI_SESSION_ID: "" }, undefined],
  ])("%s", (_case, env, client) => {
    expect(clientOfRun(undefined, env)).toBe(client);
  });

  it("takes the transcript's folder over any variable", () => {
    expect(clientOfRun("/h/.gemini/tmp/x/chats/s.json", { CLAUDECODE: "1" })).toBe("gemini");
    expect(clientOfRun("C:\\Users\\d\\.factory\\s.jsonl", { GEMINI_SESSION_ID: "g" })).toBe(
      "droid",
    );
  });
});
