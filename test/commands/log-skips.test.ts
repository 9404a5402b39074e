import { describe, expect, it } from "vitest";
import { groupSkips } from "../../src/commands/log.js";

// `hook-notify log` says a reason shared by several sinks once (a container's reason is long).
describe("groupSkips", () => {
  it("joins the sinks skipped for the same reason, in order, and keeps other reasons apart", () => {
    const container = "a container without a display (/.dockerenv; …)";
    expect(
      groupSkips([
        { sink: "desktop", reason: container },
        { sink: "team", reason: "quiet hours 22:00-07:00 (local time)" },
        { sink: "sound", reason: container },
      ]),
    ).toEqual([
      { sinks: ["desktop", "sound"], reason: container },
      { sinks: ["team"], reason: "quiet hours 22:00-07:00 (local time)" },
    ]);
  });
});
