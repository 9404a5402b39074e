import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeSettingsSchema } from "../../src/settings/hook-schema.js";
import { findPackageRoot } from "../../src/settings/load-template.js";

const ROOT = findPackageRoot();
const read = (path: string): unknown => JSON.parse(readFileSync(join(ROOT, path), "utf8"));

// The Claude Code plugin (.claude-plugin/, hooks/hooks.json) installs what `hook-notify install
// --client claude-code` does, through the package's own launcher; it must not drift from it.
describe("the Claude Code plugin", () => {
  it("has the template's events and timeouts, each running the package's launcher", () => {
    const plugin = claudeSettingsSchema.parse(read("hooks/hooks.json")).hooks;
    const template = claudeSettingsSchema.parse(read("hooks-templates/claude-code.json")).hooks;
    expect(Object.keys(plugin)).toEqual(Object.keys(template));
    for (const [event, groups] of Object.entries(template)) {
      const timeout = groups[0]?.hooks[0]?.timeout;
      expect(plugin[event]?.[0]?.hooks[0]).toEqual({
        type: "command",
        command: `sh "\${CLAUDE_PLUGIN_ROOT}/hooks-templates/launcher.sh" --client claude-code --timeout ${String(timeout)}`,
        timeout,
      });
    }
  });

  it("carries the package's name and version, and a marketplace that lists it", () => {
    const pkg = read("package.json") as { name: string; version: string };
    expect(read(".claude-plugin/plugin.json")).toMatchObject({
      name: pkg.name,
      version: pkg.version,
    });
    expect(read(".claude-plugin/marketplace.json")).toMatchObject({
      name: "hook-notify",
      plugins: [{ name: pkg.name, source: "./" }],
    });
  });
});
