import { describe, expect, it } from "vitest";
import { endOf, followArgs, itermSelectArgs } from "../../src/sinks/desktop-macos-click.js";
import { findPlace } from "../../src/focus/place.js";

const UUID = "6D6A4F2C-8B1E-4C3A-9F0D-2E7B5A1C9D44";

describe("iTerm2's session", () => {
  it.each([
    [`w0t1p0:${UUID}`, UUID],
    [`w12t3p2:${UUID.toLowerCase()}`, UUID.toLowerCase()],
    [UUID, undefined],
    [`w0t1p0:${UUID}\n`, undefined],
    [`w0t1p0:${UUID}" & do shell script "id`, undefined],
    ["w0t1p0:not-a-uuid", undefined],
  ])("ITERM_SESSION_ID %j gives %j on macOS, never elsewhere", (value, session) => {
    expect(findPlace({ ITERM_SESSION_ID: value }, "darwin").itermSession).toBe(session);
    expect(findPlace({ ITERM_SESSION_ID: value }, "linux").itermSession).toBeUndefined();
  });

  it("the script is fixed source; the session is the one argument after --", () => {
    const args = itermSelectArgs(UUID);
    expect(args.slice(-2)).toEqual(["--", UUID]);
    expect(args.filter((arg, i) => i % 2 === 1 && args[i - 1] === "-e").join("\n")).not.toContain(
      UUID,
    );
    expect(followArgs(600)).toEqual(["-timeout", "600", "-json"]);
  });

  it.each([
    ['{"activationType":"contentsClicked","activationAt":"2026-11-28 01:00:00 +0000"}', "clicked"],
    ['{"activationType":"timeout"}', "closed"],
    ['{"activationType":"closed"}', "closed"],
    ["", undefined],
    ["not json", undefined],
    ['{"other":1}', undefined],
  ])("terminal-notifier's %j is %j", (stdout, end) => {
    expect(endOf(stdout)).toBe(end);
  });
});
