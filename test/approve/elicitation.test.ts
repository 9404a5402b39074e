// An MCP form as the phone can fill it: one boolean or a 2-4 value choice; anything else stays with
// the client's own form. The answer is the accept Claude Code 2.1.332's Elicitation hook takes.
import { describe, expect, it } from "vitest";
import { elicitationAnswerJson, fitsText, readElicitation } from "../../src/approve/elicitation.js";

function form(field: unknown, extra: Record<string, unknown> = {}) {
  return {
    hook_event_name: "Elicitation",
    mcp_server_name: "deployer",
    message: "Where to?",
    mode: "form",
    requested_schema: { type: "object", properties: { target: field } },
    ...extra,
  };
}

describe("readElicitation", () => {
  it.each([
    ["an enum", { type: "string", enum: ["a", "b"] }, ["a", "b"], ["a", "b"]],
    [
      "an enum with enumNames",
      { type: "string", enum: ["a", "b"], enumNames: ["Alpha", "Beta"] },
      ["Alpha", "Beta"],
      ["a", "b"],
    ],
    [
      "a titled oneOf",
      {
        type: "string",
        oneOf: [
          { const: "a", title: "Alpha" },
          { const: "b", title: "Beta" },
        ],
      },
      ["Alpha", "Beta"],
      ["a", "b"],
    ],
    ["a boolean", { type: "boolean" }, ["Yes", "No"], [true, false]],
  ])("%s: one button per value, the value goes back", (_what, field, labels, values) => {
    const asked = readElicitation(form(field));
    expect(asked.question.labels).toEqual(labels);
    expect(asked.form).toEqual({ field: "target", values });
  });

  it.each([
    ["five values", { type: "string", enum: ["a", "b", "c", "d", "e"] }, /a choice of 5 values/],
    ["one value", { type: "string", enum: ["a"] }, /a choice of 1 values/],
    ["the same label twice", { type: "string", enum: ["a", "b"], enumNames: ["X", "X"] }, /choice/],
    ["a number among the values", { type: "string", enum: ["a", 2] }, /choice/],
    ["a string with a format", { type: "string", format: "date" }, /a string field with a format/],
    [
      "a text longer than it can take",
      { type: "string", minLength: 600 },
      /600 characters or more/,
    ],
    ["a number", { type: "number" }, /a "number" field/],
    ["a multi-select", { type: "array", items: { enum: ["a", "b"] } }, /a "array" field/],
  ])("%s: the client's own form shows", (_what, field, why) => {
    expect(() => readElicitation(form(field))).toThrow(why);
  });

  it("no message, several fields or a URL to open: the client's own form shows", () => {
    const field = { type: "boolean" };
    expect(() => readElicitation(form(field, { message: "" }))).toThrow(/without a message/);
    const two = { type: "object", properties: { a: field, b: field } };
    expect(() => readElicitation(form(field, { requested_schema: two }))).toThrow(/2 fields/);
    expect(() => readElicitation(form(field, { mode: "url" }))).toThrow(/"url" elicitation/);
  });

  it("the server's name is shown inert in the title; the field's title and description follow the message", () => {
    const field = { type: "boolean", title: "Confirm", description: "Deploy now" };
    const asked = readElicitation(form(field, { mcp_server_name: "db\u202e\nx" }));
    expect(asked.question.title).toBe("the MCP server db\uFFFD ⏎ x asks you");
    expect(asked.question.text).toBe("Where to? (Confirm: Deploy now)");
  });
});

describe("a text field", () => {
  it("is answered by a reply within its limits (at most 499 characters)", () => {
    const asked = readElicitation(form({ type: "string", minLength: 2, maxLength: 10 }));
    expect(asked.form.text).toEqual({ min: 2, max: 10 });
    expect(asked.question.labels).toEqual([]);
    expect(asked.question.text).toMatch(
      /Reply to this message with your answer \(2 to 10 characters\)\.$/,
    );
    expect(fitsText(asked.form, "ok")).toBe(true);
    expect(fitsText(asked.form, "x")).toBe(false);
    expect(fitsText(asked.form, "x".repeat(11))).toBe(false);
    const open = readElicitation(form({ type: "string" })).form;
    expect(open.text).toEqual({ min: 1, max: 499 });
    expect(JSON.parse(elicitationAnswerJson(open, "hi"))).toMatchObject({
      hookSpecificOutput: { action: "accept", content: { target: "hi" } },
    });
  });
});

describe("elicitationAnswerJson", () => {
  it("accepts with the chosen value in the one field", () => {
    expect(JSON.parse(elicitationAnswerJson({ field: "ok", values: [true, false] }, 1))).toEqual({
      hookSpecificOutput: {
        hookEventName: "Elicitation",
        action: "accept",
        content: { ok: false },
      },
    });
    expect(() => elicitationAnswerJson({ field: "ok", values: [true] }, 1)).toThrow();
  });
});
