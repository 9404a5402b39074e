import { describe, expect, it } from "vitest";
import { formatTable } from "../src/style.js";

describe("formatTable", () => {
  it("aligns columns by the width a terminal shows: CJK and emoji take two columns", () => {
    const lines = formatTable(
      ["project", "event"],
      [
        ["プロジェクト", "Stop"],
        ["🚀rocket", "Stop"],
        ["shop-api", "Stop"],
      ],
    );
    // Where "Stop" starts, counted in terminal columns (each wide character counts two).
    const column = (line: string) => {
      const before = line.slice(0, line.lastIndexOf("Stop"));
      const characters = Array.from(new Intl.Segmenter().segment(before), (part) => part.segment);
      return characters.reduce(
        (n, ch) => n + (/[\u3000-\u9fff\u{1f300}-\u{1faff}]/u.test(ch) ? 2 : 1),
        0,
      );
    };
    const starts = lines.slice(1).map(column);
    expect(new Set(starts).size).toBe(1);
  });
});
