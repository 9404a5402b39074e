import { describe, expect, it } from "vitest";
import type { HookEvent } from "../../src/core/hook-event.js";
import { deniedAction } from "../../src/message/denied-action.js";

function denied(toolName: string | undefined, input: unknown): HookEvent {
  return { name: "PermissionDenied", toolName, raw: { tool_input: input } };
}

describe("deniedAction", () => {
  it.each<[string, HookEvent, string | undefined]>([
    ["a command", denied("Bash", { command: "git push --force" }), "Bash: git push --force"],
    ["a file", denied("Write", { file_path: "/etc/hosts", content: "x" }), "Write: /etc/hosts"],
    [
      "a URL",
      denied("WebFetch", { url: "https://example.test/" }),
      "WebFetch: https://example.test/",
    ],
    ["an input naming nothing known", denied("Mystery", { a: 1 }), "Mystery"],
    ["no input", denied("Bash", undefined), "Bash"],
    ["nothing at all", denied(undefined, null), undefined],
    ["another event", { name: "Stop", raw: { tool_input: { command: "ls" } } }, undefined],
  ])("%s", (_case, event, expected) => {
    expect(deniedAction(event)).toBe(expected);
  });

  it("makes a command one line without control characters, cut to 300 characters", () => {
    const shown = deniedAction(
      denied("Bash", { command: `rm -rf x\n\u001b[31m${"y".repeat(400)}` }),
    );
    expect(shown).not.toContain("\n");
    expect(shown).not.toContain("\u001b");
    expect(shown!.length).toBeLessThanOrEqual(300);
    expect(shown!.startsWith("Bash: rm -rf x")).toBe(true);
  });
});
