// docs/levels.md lists every notification_type with its level: the table between its markers is
// the table this test renders from message/notification-types.ts (the one list), cell by cell
// (prettier may align the columns), so the page and the code cannot drift.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NOTIFICATION_TYPES } from "../../src/message/notification-types.js";

const PAGE = fileURLToPath(new URL("../../docs/levels.md", import.meta.url));
const START = "<!-- notification-types: generated from src/message/notification-types.ts -->";
const END = "<!-- notification-types: end -->";

const LEVEL_WORDS = {
  attention: "needs you",
  info: "info",
  failure: "failure",
  limit: "limit",
} as const;

function expectedRows(): string[][] {
  return [
    ["type", "level", "what it is", "sent by"],
    ...NOTIFICATION_TYPES.map((entry) => [
      `\`${entry.type}\``,
      LEVEL_WORDS[entry.level],
      entry.what,
      entry.sentBy,
    ]),
  ];
}

// A Markdown table's rows as trimmed cells, without the |---| line.
function tableRows(markdown: string): string[][] {
  return markdown
    .trim()
    .split("\n")
    .filter((line) => !/^\|[\s:|-]+\|$/.test(line.trim()))
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, "")
        .split("|")
        .map((cell) => cell.trim()),
    );
}

describe("docs/levels.md", () => {
  const page = readFileSync(PAGE, "utf8");

  it("lists every notification_type at the level the code gives it", () => {
    const start = page.indexOf(START);
    const end = page.indexOf(END);
    expect(start).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    expect(tableRows(page.slice(start + START.length, end))).toEqual(expectedRows());
  });

  it("names each type once", () => {
    const types = NOTIFICATION_TYPES.map((entry) => entry.type);
    expect(new Set(types).size).toBe(types.length);
  });
});
