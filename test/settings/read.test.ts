import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { checkText } from "../../src/settings/jsonc-policy.js";
import { firstJsoncProblem, parseSettings, readText } from "../../src/settings/read.js";
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

// Issue 38 (redteam F2): doctor and install read the settings files of a cloned repository too.
describe.runIf(process.platform !== "win32")("readText: only a regular file, bounded", () => {
  it("refuses /dev/zero and a FIFO named as a settings file, at once, with the place", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hook-notify-read-"));
    onTestFinished(() => {
      rmSync(dir, { recursive: true, force: true });
    });
    const zero = join(dir, "settings.json");
    symlinkSync("/dev/zero", zero);
    await expect(readText(zero, ".claude/settings.json")).rejects.toThrow(
      /^\.claude\/settings\.json: cannot read the file \(not a regular file\)/,
    );
    const fifo = join(dir, "fifo.json");
    spawnSync("mkfifo", [fifo]);
    await expect(readText(fifo, "fifo.json")).rejects.toThrow(/not a regular file/);
  });
});
