import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { answerBody, DECISIONS, verifyAnswer } from "../../src/approve/answer.js";
import { decisionJson, DENY_MESSAGE, inertReason, MAX_REASON } from "../../src/approve/decision.js";
import { sessionGrant } from "../../src/approve/session-grant.js";

const key = randomBytes(32);
const other = randomBytes(32);

describe("answer bodies: HMAC over (request id, decision) with the machine's key", () => {
  it.each(DECISIONS)("accepts this request's own %s", (decision) => {
    expect(verifyAnswer(key, "req-1", answerBody(key, "req-1", decision))).toEqual({
      ok: true,
      decision,
    });
  });

  it.each([
    ["another request's answer (a replay)", answerBody(key, "req-0", "allow"), "other-request"],
    ["an answer signed with another key", answerBody(other, "req-1", "allow"), "forged"],
    [
      "an allow body switched to allow-session",
      answerBody(key, "req-1", "allow").replace('"allow"', '"allow-session"'),
      "forged",
    ],
    [
      "a deny body with its decision switched to allow",
      answerBody(key, "req-1", "deny").replace('"deny"', '"allow"'),
      "forged",
    ],
    ["a bare word", "allow", "malformed"],
    [
      "an unknown decision",
      JSON.stringify({ hn: 1, request: "req-1", decision: "yes", mac: "x" }),
      "malformed",
    ],
    ["an oversized body", `${answerBody(key, "req-1", "allow")}${" ".repeat(2000)}`, "malformed"],
  ])("rejects %s", (_name, body, reason) => {
    expect(verifyAnswer(key, "req-1", body)).toEqual({ ok: false, reason });
  });
});

describe("decisionJson: the documented PermissionRequest output", () => {
  it("allow", () => {
    expect(JSON.parse(decisionJson({ decision: "allow" }))).toEqual({
      hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } },
    });
  });

  it("deny carries a message for Claude and no interrupt", () => {
    expect(JSON.parse(decisionJson({ decision: "deny" }))).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: { behavior: "deny", message: DENY_MESSAGE },
      },
    });
  });
});

describe("decisionJson: Allow for this session and a deny's reason", () => {
  const grant = sessionGrant([
    {
      type: "addRules",
      rules: [{ toolName: "Bash", ruleContent: "npm test:*" }],
      behavior: "allow",
      destination: "localSettings",
    },
  ]);

  it("allow-session sends the grant's updates; without a grant it is a plain allow", () => {
    expect(JSON.parse(decisionJson({ decision: "allow-session" }, grant))).toEqual({
      hookSpecificOutput: {
        hookEventName: "PermissionRequest",
        decision: {
          behavior: "allow",
          updatedPermissions: [
            {
              type: "addRules",
              rules: [{ toolName: "Bash", ruleContent: "npm test:*" }],
              behavior: "allow",
              destination: "session",
            },
          ],
        },
      },
    });
    expect(JSON.parse(decisionJson({ decision: "allow-session" }))).toEqual(
      JSON.parse(decisionJson({ decision: "allow" })),
    );
  });

  it("a deny with a reason tells the model the person's words", () => {
    const out = JSON.parse(decisionJson({ decision: "deny", reason: "use a branch" })) as {
      hookSpecificOutput: { decision: { message: string } };
    };
    expect(out.hookSpecificOutput.decision.message).toMatch(
      /from their phone .* said: use a branch$/,
    );
  });

  it.each([
    ["plain text", "not on main", "not on main"],
    ["escape sequences and controls gone", "\u001b[2Jred\u0007 \u001b]0;title\u0007ok", "red ok"],
    ["bidi and invisible characters gone", "ab\u202ecd\u200bef\u2066", "abcdef"],
    ["line breaks of every kind one space", "one\r\ntwo\u2028three\nfour", "one two three four"],
    ["nothing left", " \u0000\t\u200b ", undefined],
  ])("inertReason: %s", (_name, typed, expected) => {
    expect(inertReason(typed)).toBe(expected);
  });

  it("inertReason: bounded to MAX_REASON characters, marked as cut", () => {
    const reason = inertReason("é".repeat(MAX_REASON * 2)) ?? "";
    expect(Array.from(reason)).toHaveLength(MAX_REASON);
    expect(reason.endsWith("…")).toBe(true);
  });
});
