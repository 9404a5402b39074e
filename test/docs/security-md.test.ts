// SECURITY.md stays a short table a person reads, and every test or source path it (and its long
// form, docs/security-details.md) cites exists: a renamed test must take its row along.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run-bin.js";

const FILES = ["SECURITY.md", join("docs", "security-details.md")];
const CITED = /`((?:test|src|bin|docs|hooks-templates|scripts)\/[^`\s]+)`/g;

describe("SECURITY.md", () => {
  it.each(FILES)("%s cites only paths that exist", (file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    const cited = [...text.matchAll(CITED)].map((match) => String(match[1]));
    expect(cited.length).toBeGreaterThan(10);
    // A folder's files as `test/settings/*`: the folder must exist.
    const missing = cited.filter((path) => !existsSync(join(ROOT, path.replace(/\/\*$/, ""))));
    expect(missing).toEqual([]);
  });

  it("is a short table: under 150 lines, none over 300 characters, one row per line", () => {
    const lines = readFileSync(join(ROOT, "SECURITY.md"), "utf8").split("\n");
    expect(lines.length).toBeLessThan(150);
    expect(lines.filter((line) => Array.from(line).length > 300)).toEqual([]);
    const rows = lines.filter((line) => line.startsWith("| ") && !line.startsWith("| ---"));
    // threat | what holds | the test: every row cites a test that exists.
    for (const row of rows.slice(1)) expect(row).toMatch(/\| `test\/[^`]+`[^|]*\|$/);
  });

  it("gives every finding of the hostile probe (F1-F9) a row", () => {
    const text = readFileSync(join(ROOT, "SECURITY.md"), "utf8");
    for (let n = 1; n <= 9; n++) expect(text).toMatch(new RegExp(`^\\| F${String(n)}: `, "m"));
  });
});
