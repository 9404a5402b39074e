import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { answerBody, verifyAnswer } from "../../src/approve/answer.js";
import { decisionJson, DENY_MESSAGE } from "../../src/approve/decision.js";

const key = randomBytes(32);
const other = randomBytes(32);

describe("answer bodies: HMAC over (request id, decision) with the machine's key", () => {
  it.each(["allow", "deny"] as const)("accepts this request's own %s", (decision) => {
    expect(verifyAnswer(key, "req-1", answerBody(key, "req-1", decision))).toEqual({
      ok: true,
      decision,
    });
  });

  it.each([
    ["another request's answer (a replay)", answerBody(key, "req-0", "allow"), "other-request"],
    ["an answer signed with another key", answerBody(other, "req-1", "allow"), "forged"],
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
