import { describe, expect, it } from "vitest";
import { clientOfPayload, clientOfRun } from "../../src/clients/detect.js";

describe("clientOfPayload", () => {
  it.each([
    ["Codex's notify argument", { type: "agent-turn-complete", "thread-id": "t" }, "codex"],
    ["OpenCode's bus event", { type: "session.idle", properties: { sessionID: "s" } }, "opencode"],
    ["Gemini's AfterAgent", { hook_event_name: "AfterAgent" }, "gemini"],
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
