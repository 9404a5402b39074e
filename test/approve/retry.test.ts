// "Let it retry" for a blocked action: what the phone shows, and the answer Claude Code 2.1.332's
// PermissionDenied hook takes; read-request routes both new events.
import { describe, expect, it } from "vitest";
import { parsePermissionRequest } from "../../src/approve/read-request.js";
import { RETRY_LABEL, retryJson, retryQuestion } from "../../src/approve/retry.js";

describe("retryQuestion", () => {
  it("one button; the reason shown, bounded; the tool inert in the title", () => {
    const question = retryQuestion("x".repeat(400), "Bash\u001b[2J");
    expect(question.labels).toEqual([RETRY_LABEL]);
    expect(question.title).toBe("auto mode blocked Bash\uFFFD[2J");
    expect(question.text).toContain(`Auto mode blocked it: ${"x".repeat(300)}. Press`);
    expect(question.showsRequest).toBe(true);
    expect(retryQuestion(undefined, "Bash").text).toMatch(/^Auto mode blocked it: no reason given/);
  });

  it("answers retry: true, nothing else", () => {
    expect(JSON.parse(retryJson())).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionDenied", retry: true },
    });
  });
});

describe("parsePermissionRequest", () => {
  it("reads a PermissionDenied and an Elicitation with their event; a question still a PreToolUse", () => {
    const denied = parsePermissionRequest(
      JSON.stringify({
        hook_event_name: "PermissionDenied",
        tool_name: "Bash",
        tool_input: { command: "git push -f" },
        reason: "force push",
        cwd: "/home/dev/app",
      }),
    );
    expect(denied).toMatchObject({ event: "PermissionDenied", toolName: "Bash", project: "app" });
    expect(denied.question?.labels).toEqual([RETRY_LABEL]);
    const form = parsePermissionRequest(
      JSON.stringify({
        hook_event_name: "Elicitation",
        mcp_server_name: "db",
        message: "Drop it?",
        requested_schema: { type: "object", properties: { ok: { type: "boolean" } } },
      }),
    );
    expect(form).toMatchObject({ event: "Elicitation", toolName: "MCP server db" });
    expect(form.form).toEqual({ field: "ok", values: [true, false] });
    expect(() => parsePermissionRequest(JSON.stringify({ hook_event_name: "Stop" }))).toThrow(
      /Elicitation and PermissionDenied only/,
    );
  });
});
