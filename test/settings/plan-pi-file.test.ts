import { describe, expect, it } from "vitest";
import {
  planOpencodeInstall,
  readPluginEntries,
  renderOpencodePlugin,
} from "../../src/settings/plan-opencode-file.js";
import { PI_MARKER, piShape } from "../../src/settings/plan-pi-file.js";
import type { Desired } from "../../src/settings/plan.js";

const desired: Desired = new Map([
  [
    "agent_settled",
    [{ type: "command", command: "hook-notify", args: ["--client", "pi"], timeout: 10 }],
  ],
]);

describe("Pi's extension file", () => {
  it("is read back as Pi's by its own marker, never as OpenCode's plugin (nor the other way)", () => {
    const opencode = renderOpencodePlugin(desired);
    expect(piShape.read(opencode)).toBeUndefined();
    const kind = { marker: PI_MARKER, code: "" };
    const pi = renderOpencodePlugin(desired, kind);
    expect(pi.startsWith(PI_MARKER)).toBe(true);
    expect(piShape.read(pi)).toEqual({
      agent_settled: { command: ["hook-notify", "--client", "pi"], timeout: 10 },
    });
    expect(readPluginEntries(pi)).toBeUndefined();
    // A stranger's extension of the same name is refused, not overwritten.
    const theirs = "export default function (pi) {}";
    expect(planOpencodeInstall(theirs, pi, "p", kind).conflicts).toHaveLength(1);
  });
});
