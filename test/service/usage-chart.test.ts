// Usage charts in the terminal: bars scaled to the largest value with the value beside each,
// Unicode blocks on a terminal and plain ASCII with NO_COLOR or in a pipe; `usage tokens --week`
// prints the week's table with a total and its credits chart.
import { describe, expect, it } from "vitest";
import { barChart, compact, sparkline } from "../../src/commands/usage-chart.js";
import { runUsage } from "../../src/commands/usage-run.js";
import { serviceSetup } from "./service-io.js";

const points = [
  { label: "mon", value: 10 },
  { label: "tue", value: 5 },
  { label: "wed", value: 0 },
];

describe("barChart", () => {
  it("draws Unicode bars on a terminal and # bars otherwise, the same numbers in both", () => {
    expect(barChart("Credits", points, { unicode: true, width: 8 })).toEqual([
      "Credits  █▅▁",
      "  mon ████████  10",
      "  tue ████      5",
      "  wed           0",
    ]);
    expect(barChart("Credits", points, { unicode: false, width: 8 })).toEqual([
      "Credits",
      "  mon ########  10",
      "  tue ####      5",
      "  wed           0",
    ]);
  });

  it("writes big numbers short and a flat series as the lowest block", () => {
    expect([compact(950), compact(12_400), compact(2_500_000), compact(0.5)]).toEqual([
      "950",
      "12.4k",
      "2.5M",
      "0.50",
    ]);
    expect(sparkline([points[0]!, points[0]!])).toBe("▁▁");
  });
});

describe("usage tokens --week", () => {
  async function run(env: Record<string, string>) {
    const { configPath, io, out } = await serviceSetup(env);
    expect(await runUsage(io, { configPath, kind: "tokens", week: true, json: false })).toBe(0);
    return out.join("\n");
  }

  it("names the organisation, totals the week and charts credits per day", async () => {
    const terminal = await run({ FORCE_COLOR: "1" });
    expect(terminal).toMatch(/^Organisation org-fake · \S+ to \S+ \(UTC\)\n/);
    // Readable: the unit in the header, thousands separated, numbers aligned on the right.
    const table = terminal.split("\n").slice(1, 10);
    expect(table[0]).toMatch(
      /^DAY {2,}CREDITS {2}INPUT TOKENS {2}OUTPUT TOKENS {2}CACHE-READ TOKENS$/,
    );
    expect(table.at(-1)).toMatch(/^TOTAL +\d{1,3}(,\d{3})+ /);
    const end = (table[0] ?? "").indexOf("CREDITS") + "CREDITS".length;
    for (const line of table.slice(1)) expect(line.slice(end - 1, end + 1)).toMatch(/^\d $/);
    expect(table.join("\n")).not.toMatch(/(?<![\d-])\d{4,}(?![\d-])/);
    expect(terminal).toMatch(
      /Credits per day {2}[▁▂▃▄▅▆▇█]{7}\n( {2}\d{4}-\d\d-\d\d [█▏▎▍▌▋▊▉ ]+ \S+\n?){7}$/,
    );
    const plain = await run({ NO_COLOR: "1", FORCE_COLOR: "1" });
    expect(plain).toMatch(/Credits per day\n( {2}\d{4}-\d\d-\d\d #* +\S+\n?){7}$/);
    expect(plain).not.toMatch(/[█▁]/);
  });
});
