import { describe, expect, it } from "vitest";
import { diffLines, maskValues } from "../../src/settings/report-diff.js";

describe("diffLines", () => {
  it("is empty when nothing changed", () => {
    expect(diffLines("a\nb\n", "a\nb\n", "f")).toBe("");
  });

  it("shows changed lines with two lines of context and hunk breaks", () => {
    const before = ["{", "  a", "  b", "  c", "  d", "  e", "  f", "  g", "}"].join("\n");
    const after = ["{", "  A", "  b", "  c", "  d", "  e", "  f", "  g", "  h", "}"].join("\n");
    expect(diffLines(before, after, "x.json")).toMatchInlineSnapshot(`
      "--- x.json
      +++ x.json
        {
      -   a
      +   A
          b
          c
      @@
          f
          g
      +   h
        }"
    `);
  });

  it("shows a new file as all additions", () => {
    expect(diffLines("", "{\n}\n", "n")).toBe("--- n\n+++ n\n+ {\n+ }");
  });

  it("masks the user's string values, keeping keys and hook-notify's own entries", () => {
    const before = '{\n  "env": {\n    "API_KEY": "sk-secret-1"\n  }\n}\n';
    const after = '{\n  "env": {\n    "API_KEY": "sk-secret-1"\n  },\n  "hooks": {}\n}\n';
    const diff = diffLines(before, after, "settings.json");
    expect(diff).not.toContain("sk-secret-1");
    expect(diff).toContain('"API_KEY": "…"');
  });

  it.each([
    ['"API_KEY": "sk-1",', '"API_KEY": "…",'],
    ['"apiKeyHelper": "echo \\"sk-2\\""', '"apiKeyHelper": "…"'],
    ['"args": ["--token", "sk-3"]', '"args": ["…", "…"]'],
    ['"sk-4",', '"…",'],
    ['"type": "command", "command": "curl -H sk-5"', '"type": "command", "command": "…"'],
    [
      '"command": "/usr/bin/hook-notify --client droid"',
      '"command": "/usr/bin/hook-notify --client droid"',
    ],
    ['"matcher": "Bash", "timeout": 10', '"matcher": "Bash", "timeout": 10'],
    ['{"env":{"K":"sk-6"},"hooks":{}}', '{"env":{"K":"…"},"hooks":{}}'],
  ])("maskValues(%s) is %s", (line, masked) => {
    expect(maskValues(line)).toBe(masked);
  });
});
