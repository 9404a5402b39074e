import { applyEdits, format, modify, type FormattingOptions } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { detectFormatting, formatEdits } from "../../src/settings/jsonc-edit.js";
import type { CommandHandler } from "../../src/settings/hook-schema.js";
import { planInstall, planUninstall, type PlanFile } from "../../src/settings/plan.js";
import { settingsShape } from "../../src/settings/shape-settings.js";

const handler = (event: string): CommandHandler => ({
  type: "command",
  command: `"/usr/bin/node" "/opt/hn/bin/hook-notify.js" --client claude-code --timeout ${event === "SessionEnd" ? 5 : 10}`,
  timeout: event === "SessionEnd" ? 5 : 10,
});
const desired = new Map(
  ["Notification", "Stop", "SubagentStop", "SessionEnd"].map((e) => [e, [handler(e)]]),
);
const settings: PlanFile = { shape: settingsShape, shown: "settings.json", mayDelete: true };
const MB = 1024 * 1024;

// A minified settings object of about `bytes`: many keys, foreign hooks, one line.
function minifiedObject(bytes: number): Record<string, unknown> {
  const env: Record<string, string> = {};
  const groups: unknown[] = [];
  const count = Math.ceil(bytes / 190); // about 120 bytes of env and 70 of hooks each
  for (let i = 0; i < count; i++) {
    env[`VAR_${i}`] = "v".repeat(100);
    groups.push({ matcher: `Tool${i}`, hooks: [{ type: "command", command: `echo ${i}` }] });
  }
  return { model: "opus", env, hooks: { PreToolUse: groups } };
}

// The one stretch where `after` differs from `before`, if `after` is `before` plus one insertion.
function insertionIn(before: string, after: string): string | undefined {
  let head = 0;
  while (head < before.length && before[head] === after[head]) head++;
  const inserted = after.slice(head, head + after.length - before.length);
  return after.slice(0, head) + after.slice(head + inserted.length) === before
    ? inserted
    : undefined;
}

describe("a minified one-line settings file", () => {
  it("1 MB: install inserts minified on the same line, every original byte kept; uninstall gives it back", () => {
    const text = JSON.stringify(minifiedObject(MB));
    const plan = planInstall(text, desired, settings);
    expect(plan.conflicts).toEqual([]);
    const next = plan.next!;
    expect(next).not.toContain("\n");
    const inserted = insertionIn(text, next);
    expect(inserted).toBeDefined();
    expect(inserted!.startsWith(',"Notification":[{"hooks":[{"type":"command"')).toBe(true);
    expect((JSON.parse(next) as { hooks: Record<string, unknown> }).hooks["Stop"]).toEqual([
      { hooks: [handler("Stop")] },
    ]);
    expect(planUninstall(next, undefined, settings).next).toBe(text);
  }, 120_000);
});

describe("formatting an insertion into a formatted file", () => {
  const fmt = detectFormatting('{\n  "a": 1\n}\n') as FormattingOptions;

  // "hooks" sits on one long line of an otherwise indented file: only the insertion is formatted.
  const fileWithLongLine = (bytes: number): string =>
    `{\n  "env": ${JSON.stringify(minifiedObject(bytes)["env"])}, "hooks": {}\n}\n`;

  it.each([1, 4])(
    "%s MB: the formatter's edits cover what was inserted, never the rest of the line",
    (size) => {
      const text = fileWithLongLine(size * MB);
      const [edit] = modify(text, ["hooks", "Stop"], [{ hooks: [handler("Stop")] }], {});
      const after = applyEdits(text, [edit!]);
      const edits = formatEdits(after, edit!, fmt);
      // Each edit is the whitespace before one token of the 2-group value: a fixed number.
      expect(edits.length).toBe(16);
      for (const one of edits) {
        expect(one.offset).toBeGreaterThanOrEqual(edit!.offset - 1);
        expect(one.offset).toBeLessThanOrEqual(edit!.offset + edit!.content.length + 1);
      }
      // jsonc-parser's own formatting of the edited line touches every token on it.
      const lineStart = after.lastIndexOf("\n", edit!.offset) + 1;
      const lineEnd = after.indexOf("\n", edit!.offset);
      const whole = format(after, { offset: lineStart, length: lineEnd - lineStart }, fmt);
      expect(whole.length).toBeGreaterThan(size * 10_000);
    },
    120_000,
  );

  it("install keeps the long line as it was and indents only what it adds", () => {
    const text = fileWithLongLine(MB);
    const next = planInstall(text, desired, settings).next!;
    const longLine = text.split("\n")[1]!.replace(/\{\}$/, "{");
    expect(next.split("\n")[1]).toBe(longLine);
    expect(next.split("\n")[2]).toBe('    "Notification": [');
  });
});
