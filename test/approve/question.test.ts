// AskUserQuestion: which questions the phone answers, and the answer's exact shape (the input
// whole, plus answers), as proven with the real Claude Code 2.1.332 (docs/approve.md).
import { describe, expect, it } from "vitest";
import { optionIndex } from "../../src/approve/answer.js";
import { questionAnswerJson, questionLines, readQuestion } from "../../src/approve/question.js";
import { parsePermissionRequest } from "../../src/approve/read-request.js";
import { buildPublish, offered } from "../../src/approve/request.js";
import { summarizeRequest } from "../../src/approve/summary.js";

const options = [{ label: "SQLite", description: "A file" }, { label: "PostgreSQL" }];
const one = (extra: Record<string, unknown> = {}) => ({
  questions: [{ question: "Which database?", header: "DB", options, multiSelect: false, ...extra }],
});

describe("AskUserQuestion", () => {
  it("reads one single-choice question of 2 to 4 distinct options; anything else: the terminal asks", () => {
    expect(readQuestion(one())).toEqual({
      text: "Which database?",
      labels: ["SQLite", "PostgreSQL"],
      descriptions: ["A file", ""],
    });
    const five = Array.from({ length: 5 }, (_, i) => ({ label: `o${i}` }));
    for (const bad of [
      {},
      { questions: [] },
      { questions: [...one().questions, ...one().questions] },
      one({ multiSelect: true }),
      one({ options: [{ label: "only" }] }),
      one({ options: five }),
      one({ options: [{ label: "same" }, { label: "same" }] }),
      one({ options: [{ label: "" }, { label: "b" }] }),
      one({ question: 42 }),
    ]) {
      expect(() => readQuestion(bad)).toThrow(/the terminal asks/);
    }
  });

  it("answers with the whole input plus answers, keyed by the question as sent", () => {
    const input = { ...one(), answers: { earlier: "kept" }, extra: 1 };
    expect(JSON.parse(questionAnswerJson(input, readQuestion(input), "PostgreSQL"))).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        updatedInput: {
          ...input,
          answers: { earlier: "kept", "Which database?": "PostgreSQL" },
        },
      },
    });
  });

  it("shows hostile option text inert, on one line each; the buttons are the options' own", () => {
    const question = readQuestion(
      one({ options: [{ label: "a\nb\u202e" }, { label: "ok", description: "x\u0007" }] }),
    );
    const lines = questionLines(question);
    expect(lines).toHaveLength(3);
    expect(lines.join("\n")).not.toContain("\u0007");
    expect(lines.join("\n")).not.toContain("\u202e");
    const decisions = offered({ question });
    expect(decisions).toEqual(["option-1", "option-2"]);
    expect(decisions.map(optionIndex)).toEqual([0, 1]);
    const setup = {
      root: "https://ntfy.example/",
      requestTopic: "req",
      replyTopic: "reply",
      token: "tk",
      seconds: 30,
    } as Parameters<typeof buildPublish>[0];
    const summary = summarizeRequest("AskUserQuestion", one());
    const origin = { kind: "agent" as const, agent: "Claude Code" };
    const body = JSON.parse(
      buildPublish(setup, "r1", summary, origin, Buffer.alloc(32), { question }).body,
    ) as { title: string; actions: { label: string }[] };
    expect(body.title).toBe("Claude Code asks you a question");
    expect(body.actions.map((a) => a.label)[1]).toBe("ok");
    expect(body.actions[0]!.label).not.toMatch(/[\n\u202e]/);
  });

  it("approve takes the PreToolUse of AskUserQuestion, and no other tool's", () => {
    const event = {
      hook_event_name: "PreToolUse",
      tool_name: "AskUserQuestion",
      tool_input: one(),
    };
    expect(parsePermissionRequest(JSON.stringify(event)).question?.labels).toEqual([
      "SQLite",
      "PostgreSQL",
    ]);
    expect(() => parsePermissionRequest(JSON.stringify({ ...event, tool_name: "Bash" }))).toThrow(
      /PreToolUse of AskUserQuestion, Elicitation and PermissionDenied only/,
    );
  });
});
