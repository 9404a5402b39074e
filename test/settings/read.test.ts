import { describe, expect, it } from "vitest";
import { checkText } from "../../src/settings/jsonc-policy.js";
import { firstJsoncProblem, parseSettings } from "../../src/settings/read.js";
import { toStrictJson } from "../../src/settings/strict-json.js";

const JSONC = `{
  // notify me
  "Stop": [
    { "hooks": [{ "type": "command", "command": "x" }] }, /* old */
  ],
}
`;

describe("parseSettings", () => {
  it.each([
    ["strict JSON", '{"a": 1}', false],
    ["an empty file", "", false],
    ["a comment", '{"a": 1 // c\n}', true],
    ["a trailing comma", '{"a": 1,}', true],
    ["a byte-order mark", '\uFEFF{"a": 1}', true],
  ])("tells %s apart", (_name, text, isJsonc) => {
    expect(parseSettings(text, "f").isJsonc).toBe(isJsonc);
  });

  it.each(['{"a": }', "{", "not json", '{"a": 1} x'])(
    "rejects %j with SETTINGS_INVALID",
    (text) => {
      expect(() => parseSettings(text, "f")).toThrow(
        expect.objectContaining({ code: "SETTINGS_INVALID" }),
      );
    },
  );

  it("points at the first JSONC problem", () => {
    expect(firstJsoncProblem(JSONC)).toBe("a comment at line 2 column 3");
    expect(firstJsoncProblem('{"a": 1,\n}')).toBe("a trailing comma at line 2 column 1");
    expect(firstJsoncProblem("\uFEFF{}")).toBe("a byte-order mark at the start");
  });
});

describe("checkText", () => {
  it.each(["droid", "claude-code"] as const)(
    "refuses JSONC for %s unless told to fix it",
    (client) => {
      expect(() => checkText(JSONC, client, "f", "refuse")).toThrow(
        expect.objectContaining({ code: "SETTINGS_INVALID" }),
      );
      expect(checkText(JSONC, client, "f", "keep").text).toBe(JSONC);
      expect(checkText(JSONC, client, "f", "fix").note).toMatch(/strict JSON/);
    },
  );
});

describe("toStrictJson", () => {
  it("drops comments, trailing commas and the BOM, keeping the layout", () => {
    const strict = toStrictJson("\uFEFF" + JSONC);
    expect(strict).toMatchInlineSnapshot(`
      "{
        "Stop": [
          { "hooks": [{ "type": "command", "command": "x" }] }
        ]
      }
      "
    `);
    expect(parseSettings(strict, "f").isJsonc).toBe(false);
    expect(JSON.parse(strict)).toEqual({ Stop: [{ hooks: [{ type: "command", command: "x" }] }] });
  });

  it("leaves strict JSON alone", () => {
    const text = '{\n  "a": [1, 2],\n  "b": "// not a comment, /* nor this */"\n}\n';
    expect(toStrictJson(text)).toBe(text);
  });
});
