// The hook's own bundle stays lean: the D-Bus client is the worker's, never on the hook's path.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("dist/hook.cjs", () => {
  it("carries no D-Bus client (src/dbus/)", () => {
    const hook = readFileSync(new URL("../../dist/hook.cjs", import.meta.url), "utf8");
    expect(hook.length).toBeGreaterThan(1000);
    expect(hook).not.toContain("AUTH EXTERNAL");
  });
});
