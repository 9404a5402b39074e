// Codex's permission requests: its real PermissionRequest payload (0.169.0) read into the request,
// the phone's title naming Codex, and which --client approve answers for.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decisionJson } from "../../src/approve/decision.js";
import { parsePermissionRequest } from "../../src/approve/read-request.js";
import { requestTitle } from "../../src/approve/request.js";
import { summarizeRequest } from "../../src/approve/summary.js";
import { approverFor, approvingClients } from "../../src/clients/index.js";

const payload = readFileSync(
  join(import.meta.dirname, "..", "fixtures", "events", "codex", "PermissionRequest.json"),
  "utf8",
);

describe("Codex's PermissionRequest", () => {
  it("reads tool, input, project and session from the captured payload", () => {
    expect(parsePermissionRequest(payload)).toEqual({
      toolName: "Bash",
      toolInput: { command: "touch hn-probe.txt", description: "create a probe file" },
      project: "proj",
      session: "01a209b0-03e5-71a1-adeb-437cc4be0796",
    });
  });

  it("titles the phone's question with the asking client", () => {
    const request = parsePermissionRequest(payload);
    const summary = summarizeRequest(request.toolName, request.toolInput);
    expect(requestTitle(summary, { ...request, agent: "Codex", kind: "agent" })).toBe(
      "Codex asks to use Bash",
    );
    expect(requestTitle(summary, { ...request, agent: "Claude Code", kind: "agent" })).toBe(
      "Claude Code asks to use Bash",
    );
  });

  // permission-request.command.output in the 0.169.0 binary: additionalProperties false, and
  // updatedInput, updatedPermissions or interrupt true fail closed.
  it("gets only fields its output schema allows", () => {
    for (const decision of ["allow", "deny"] as const) {
      const out = JSON.parse(decisionJson({ decision })) as {
        hookSpecificOutput: Record<string, unknown> & { decision: Record<string, unknown> };
      };
      expect(Object.keys(out)).toEqual(["hookSpecificOutput"]);
      expect(Object.keys(out.hookSpecificOutput).sort()).toEqual(["decision", "hookEventName"]);
      expect(out.hookSpecificOutput.hookEventName).toBe("PermissionRequest");
      expect(out.hookSpecificOutput.decision.behavior).toBe(decision);
      for (const key of Object.keys(out.hookSpecificOutput.decision)) {
        expect(["behavior", "message"]).toContain(key);
      }
    }
  });
});

describe("approverFor: the client approve answers", () => {
  it("Claude Code without --client (entries written before), Codex by name, no other", () => {
    expect(approverFor(undefined)?.id).toBe("claude-code");
    expect(approverFor("codex")?.id).toBe("codex");
    expect(approverFor("claude-code")?.id).toBe("claude-code");
    for (const id of ["droid", "gemini", "copilot", "opencode", "nope", ""]) {
      expect(approverFor(id)).toBeUndefined();
    }
    expect(approvingClients().map((adapter) => adapter.id)).toEqual(["claude-code", "codex"]);
  });
});
