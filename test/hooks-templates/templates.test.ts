import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { DEFAULT_EVENTS } from "../../src/core/hook-event.js";
import {
  buildApproveCommand,
  buildCommand,
  isHookNotifyCommand,
} from "../../src/settings/hook-command.js";
import { DEFAULT_APPROVE_SECONDS } from "../../src/core/defaults.js";
import { parseSettings } from "../../src/settings/read.js";
import { findPackageRoot, loadTemplate } from "../../src/settings/load-template.js";
import { isOurWrapper } from "../../src/settings/plan-wrapper.js";

const root = findPackageRoot();

// The hook shape both clients accept, strictly: no key we did not mean to write.
const handler = z.strictObject({
  type: z.literal("command"),
  command: z.string().min(1),
  timeout: z.number().int().min(1).max(60),
});
const groups = z
  .array(z.strictObject({ matcher: z.string().optional(), hooks: z.array(handler).length(1) }))
  .length(1);
const BASE = ["Notification", "Stop", "SubagentStop", "SessionEnd", "UserPromptSubmit"] as const;
const eventMap = z.record(z.enum([...BASE, "StopFailure", "PermissionDenied"]), groups);
// Droid has no StopFailure or PermissionDenied hook event; Claude Code does.
const SHAPES = {
  "claude-code": z.strictObject({ hooks: eventMap }),
  droid: z.record(z.enum(BASE), groups),
} as const;

const read = async (name: string): Promise<string> =>
  readFile(join(root, "hooks-templates", name), "utf8");

describe.each(["claude-code", "droid"] as const)("hooks-templates/%s.json", (client) => {
  it("is strict JSON without a BOM, in the client's hook shape", async () => {
    const text = await read(`${client}.json`);
    expect(parseSettings(text, client).isJsonc).toBe(false);
    const parsed = SHAPES[client].safeParse(JSON.parse(text));
    expect(parsed.error).toBeUndefined();
  });

  it("has every default event the client sends, each with an explicit timeout in seconds (SessionEnd too)", async () => {
    const json = JSON.parse(await read(`${client}.json`)) as Record<string, unknown>;
    const map = (client === "droid" ? json : json["hooks"]) as z.infer<typeof eventMap>;
    // Droid has neither; Claude Code fires StopFailure instead of Stop when a turn ends on an API
    // error, so without that entry the person is told nothing until SessionEnd, and
    // PermissionDenied when auto mode blocked an action (the agent goes on without it, unasked).
    const sent = DEFAULT_EVENTS.filter(
      (event) =>
        client === "claude-code" || (event !== "StopFailure" && event !== "PermissionDenied"),
    );
    // UserPromptSubmit only records when the person answered the session (escalation).
    expect(Object.keys(map)).toEqual([...sent, "UserPromptSubmit"]);
    const defaults = await loadTemplate(client, root);
    expect(Object.fromEntries(defaults)).toEqual({
      Notification: 10,
      Stop: 10,
      SubagentStop: 10,
      SessionEnd: 5,
      ...(client === "claude-code" ? { StopFailure: 10, PermissionDenied: 10 } : {}),
      UserPromptSubmit: 5,
    });
    for (const [event, groups] of Object.entries(map)) {
      const entry = groups[0]!.hooks[0]!;
      expect(entry.timeout).toBe(defaults.get(event));
      expect(entry.command).toBe(buildCommand({ program: "hook-notify" }, client, entry.timeout));
      expect(isHookNotifyCommand(entry.command)).toBe(true);
    }
  });
});

describe("hooks-templates/hook-notify.sh", () => {
  it("is a POSIX sh script that install recognises as its own", async () => {
    const text = await read("hook-notify.sh");
    expect(text.startsWith("#!/bin/sh\n")).toBe(true);
    expect(isOurWrapper(text)).toBe(true);
    expect(text).not.toMatch(/\becho\b|\bprintf\b/);
  });
});

describe("hooks-templates/claude-code-approve.json", () => {
  it("is Claude Code's PermissionRequest entry running approve, 30 s longer than approveSeconds, and the same on PreToolUse for AskUserQuestion", async () => {
    const text = await read("claude-code-approve.json");
    expect(parseSettings(text, "claude-code").isJsonc).toBe(false);
    const json = JSON.parse(text) as {
      hooks: {
        PermissionRequest: { hooks: { type: string; command: string; timeout: number }[] }[];
        PreToolUse: unknown;
      };
    };
    expect(Object.keys(json.hooks)).toEqual(["PermissionRequest", "PreToolUse"]);
    const entry = json.hooks.PermissionRequest[0]!.hooks[0]!;
    expect(entry.timeout).toBe(DEFAULT_APPROVE_SECONDS + 30);
    expect(entry.command).toBe(
      buildApproveCommand({ program: "hook-notify" }, "claude-code", entry.timeout),
    );
    expect(isHookNotifyCommand(entry.command)).toBe(true);
    expect(json.hooks.PreToolUse).toEqual([
      { matcher: "AskUserQuestion", hooks: json.hooks.PermissionRequest[0]!.hooks },
    ]);
  });
});
