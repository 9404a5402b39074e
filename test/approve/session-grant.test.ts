import { describe, expect, it } from "vitest";
import { sessionGrant } from "../../src/approve/session-grant.js";

const rules = (toolName: string, ruleContent?: string) => ({
  type: "addRules",
  rules: [ruleContent === undefined ? { toolName } : { toolName, ruleContent }],
  behavior: "allow",
  destination: "localSettings",
});

describe("sessionGrant: permission_suggestions in words, scoped to the session", () => {
  it.each([
    ["a Bash prefix rule", [rules("Bash", "npm test:*")], "allow `npm test …` commands"],
    ["an exact Bash rule", [rules("Bash", "npm test")], "allow the command `npm test`"],
    ["a whole tool", [rules("WebSearch")], "allow every WebSearch call"],
    [
      "another tool's rule",
      [rules("WebFetch", "domain:example.com")],
      "allow WebFetch `domain:example.com`",
    ],
    [
      "a folder and accept-edits (the captured fixture)",
      [
        { type: "addDirectories", directories: ["/home/dev/app"], destination: "session" },
        { type: "setMode", mode: "acceptEdits", destination: "session" },
      ],
      "work in /home/dev/app; accept file edits without asking",
    ],
    [
      "hostile rule text: one inert line, no backtick to close the quote",
      [rules("Bash", "echo `id`\n\u202erm -rf ~:*")],
      "allow `echo 'id' ⏎ \uFFFDrm -rf ~ …` commands",
    ],
  ])("%s", (_name, suggestions, words) => {
    const grant = sessionGrant(suggestions);
    expect(grant?.words).toBe(words);
    for (const update of grant?.updates ?? []) expect(update.destination).toBe("session");
  });

  it.each([
    ["no suggestions", undefined],
    ["not a list", { type: "addRules" }],
    ["a deny rule", [{ ...rules("Bash", "rm:*"), behavior: "deny" }]],
    ["removing rules", [{ ...rules("Bash", "rm:*"), type: "removeRules" }]],
    ["another mode", [{ type: "setMode", mode: "bypassPermissions", destination: "session" }]],
    ["a rule without a tool", [{ ...rules("Bash"), rules: [{ ruleContent: "x" }] }]],
    ["too long to show whole", [rules("Bash", `${"x".repeat(500)}:*`)]],
  ])("offers nothing for %s", (_name, suggestions) => {
    expect(sessionGrant(suggestions)).toBeUndefined();
  });

  it("keeps only what it can say: a grant beside an unknown entry goes without it", () => {
    const grant = sessionGrant([rules("Bash", "ls:*"), { type: "replaceRules", rules: [] }]);
    expect(grant?.updates).toEqual([
      {
        type: "addRules",
        rules: [{ toolName: "Bash", ruleContent: "ls:*" }],
        behavior: "allow",
        destination: "session",
      },
    ]);
  });
});
