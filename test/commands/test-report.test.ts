// `hook-notify test`'s report: failures that share a fix say that fix once.
import { describe, expect, it } from "vitest";
import { resultLines } from "../../src/commands/test-report.js";
import { createStyle } from "../../src/style.js";

const plain = createStyle({ isTTY: false }, {});

describe("test's report", () => {
  it("says a fix shared by several failures once, and not again inside the error", () => {
    const failed = (sink: string, error: string, fix: string) => ({
      sink,
      type: "webhook",
      target: "t",
      ok: false,
      code: "SINK_NETWORK",
      error: `${sink}: ${error}`,
      fix,
    });
    const lines = resultLines(
      [
        failed("a", "refused. Check the URL.", "Check the URL."),
        failed("b", "refused.", "Check the URL."),
        failed("c", "timed out.", "Raise timeoutSeconds."),
      ],
      plain,
    );
    expect(lines.filter((line) => line === "  fix: Check the URL.")).toHaveLength(1);
    expect(lines.filter((line) => line.includes("Check the URL."))).toHaveLength(1);
    expect(lines).toContain("failed a: refused.");
    expect(lines).toContain("  fix: Raise timeoutSeconds.");
  });
});
