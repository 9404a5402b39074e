import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { fromClientTimeout } from "../../src/clients/adapter.js";
import { CLIENT_IDS, clients } from "../../src/clients/index.js";
import { KNOWN_EVENTS } from "../../src/core/hook-event.js";
import { buildCommand, isHookNotifyCommand } from "../../src/settings/hook-command.js";
import { parseSettings } from "../../src/settings/read.js";
import { shapeOf } from "../../src/settings/shapes.js";
import { findPackageRoot, loadTemplate } from "../../src/settings/load-template.js";
import { locateTarget } from "../../src/settings/locate.js";

const root = findPackageRoot();
const handler = z.strictObject({
  type: z.literal("command"),
  command: z.string().min(1),
  /** OpenCode's plugin runs an argument array: the program, then these. */
  args: z.array(z.string()).optional(),
  timeout: z.number().int().positive(),
});
const groups = z
  .array(z.strictObject({ matcher: z.string().optional(), hooks: z.array(handler).length(1) }))
  .length(1);
const map = z.record(z.string(), groups);

describe.each(clients.map((adapter) => [adapter.id, adapter] as const))(
  "%s adapter",
  (id, adapter) => {
    it("is registered once, under its own id", () => {
      expect(clients.filter((other) => other.id === id)).toHaveLength(1);
      expect(CLIENT_IDS).toContain(id);
    });

    it("maps every event it names onto one of hook-notify's events", () => {
      for (const event of Object.values(adapter.events)) expect(KNOWN_EVENTS).toContain(event);
    });

    it("has a strict JSON template of its own events, each with an explicit timeout in its unit", async () => {
      const text = await readFile(join(root, "hooks-templates", `${id}.json`), "utf8");
      expect(parseSettings(text, id).isJsonc).toBe(false);
      const json = JSON.parse(text) as Record<string, unknown>;
      const events = map.parse(shapeOf(adapter.shape).eventMap(json));
      const defaults = await loadTemplate(id, root);
      for (const [event, [group]] of Object.entries(events)) {
        // Every entry notifies on one of the adapter's events, except UserPromptSubmit, which only
        // records that the person answered (escalation's "came back"; it never notifies).
        if (event !== "UserPromptSubmit") expect(Object.keys(adapter.events)).toContain(event);
        const entry = group!.hooks[0]!;
        const seconds = fromClientTimeout(adapter, entry.timeout);
        expect(defaults.get(event)).toBe(seconds);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(60);
        const named = adapter.namesEventInArgs === true ? event : undefined;
        const line = [entry.command, ...(entry.args ?? [])].join(" ");
        expect(line).toBe(buildCommand({ program: "hook-notify" }, id, seconds, named));
        expect(isHookNotifyCommand(line)).toBe(true);
      }
      // Every client that has a "done" event gets it, and a session end has its own short budget.
      expect(Object.values(adapter.events)).toContain("Stop");
      // OpenCode and the clients built on it have no session-end event.
      const sessionEnd = Object.keys(events).find((e) => adapter.events[e] === "SessionEnd");
      if (sessionEnd !== undefined) expect(defaults.get(sessionEnd)).toBeLessThan(10);
      else expect(adapter.shape).toBe("plugin");
    });

    it("locates a hook file for every scope it has, the user's inside its config folder", () => {
      const input = { home: "/h", projectDir: "/p", env: {} };
      for (const scope of adapter.scopes) {
        const target = locateTarget(id, scope, input);
        expect(target.client).toBe(id);
        if (scope === "user") expect(target.file.startsWith(adapter.configDir(input))).toBe(true);
        else expect(target.file.startsWith("/p/")).toBe(true);
        if (scope === "project") expect(target.wrapper?.command).toMatch(/hook-notify\.sh$/);
      }
    });
  },
);
