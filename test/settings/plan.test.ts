import { describe, expect, it } from "vitest";
import type { CommandHandler } from "../../src/settings/hook-schema.js";
import { planInstall, planUninstall, type PlanFile } from "../../src/settings/plan.js";
import { bareShape } from "../../src/settings/shape-bare.js";
import { settingsShape } from "../../src/settings/shape-settings.js";

const CMD = '"/usr/bin/node" "/opt/hn/bin/hook-notify.js"';
const handler = (event: string, timeout = event === "SessionEnd" ? 5 : 10): CommandHandler => ({
  type: "command",
  command: `${CMD} --client claude-code --timeout ${timeout}`,
  timeout,
});
const desired = new Map(
  ["Notification", "Stop", "SubagentStop", "SessionEnd"].map((e) => [e, [handler(e)]]),
);
const settings: PlanFile = { shape: settingsShape, shown: "settings.json", mayDelete: true };
const bare: PlanFile = { shape: bareShape, shown: "hooks.json", mayDelete: true };

const foreign = {
  type: "command",
  command: "afplay /System/Library/Sounds/Glass.aiff",
  timeout: 3,
};

// A settings.json exactly as JSON.stringify(…, null, 2) writes it, plus a final newline.
const pretty = (value: unknown): string => JSON.stringify(value, null, 2) + "\n";

describe("planInstall", () => {
  it.each([
    ["a missing file", undefined],
    ["an empty file", ""],
    ["a blank file", "  \n"],
    ["an empty object", "{}\n"],
  ])("adds all four events to %s", (_name, text) => {
    const plan = planInstall(text, desired, settings);
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes.map((c) => c.action)).toEqual(["added", "added", "added", "added"]);
    expect(JSON.parse(plan.next!)).toEqual({
      hooks: Object.fromEntries([...desired].map(([e, h]) => [e, [{ hooks: h }]])),
    });
    expect(plan.next!.endsWith("}\n")).toBe(true);
  });

  it("keeps foreign hooks on the same events, other keys and their order", () => {
    const text = pretty({
      model: "opus",
      hooks: { Stop: [{ hooks: [foreign] }], PreToolUse: [{ matcher: "Bash", hooks: [foreign] }] },
      permissions: { allow: ["Bash(ls)"] },
    });
    const plan = planInstall(text, desired, settings);
    const next = JSON.parse(plan.next!) as { hooks: Record<string, unknown> };
    expect(Object.keys(next)).toEqual(["model", "hooks", "permissions"]);
    expect(Object.keys(next.hooks)).toEqual([
      "Stop",
      "PreToolUse",
      "Notification",
      "SubagentStop",
      "SessionEnd",
    ]);
    expect(next.hooks["Stop"]).toEqual([{ hooks: [foreign] }, { hooks: [handler("Stop")] }]);
    expect(next.hooks["PreToolUse"]).toEqual([{ matcher: "Bash", hooks: [foreign] }]);
  });

  it("changes nothing on a second run", () => {
    const once = planInstall(undefined, desired, settings).next;
    const twice = planInstall(once, desired, settings);
    expect(twice).toEqual({ next: once, changes: [], conflicts: [] });
  });

  it.each([
    ["another timeout", `${CMD} --client claude-code --timeout 30`, 30],
    ["an older path", "/home/me/.npm/bin/hook-notify --timeout 5", 5],
    ["npx", "npx -y hook-notify run", undefined],
    ["the wrapper", '"$CLAUDE_PROJECT_DIR"/.claude/hooks/hook-notify.sh --client claude-code', 10],
  ])("updates an older entry with %s in place", (_name, command, timeout) => {
    const old = {
      type: "command",
      command,
      ...(timeout === undefined ? {} : { timeout }),
      statusMessage: "kept",
    };
    const text = pretty({ hooks: { Stop: [{ matcher: "", hooks: [foreign, old] }] } });
    const plan = planInstall(text, new Map([["Stop", [handler("Stop")]]]), settings);
    expect(plan.changes).toEqual([{ event: "Stop", action: "updated" }]);
    expect(JSON.parse(plan.next!)).toEqual({
      hooks: { Stop: [{ matcher: "", hooks: [foreign, { ...old, ...handler("Stop") }] }] },
    });
  });

  it("keeps one entry when older installs left several", () => {
    const text = pretty({
      hooks: {
        Stop: [
          { hooks: [handler("Stop")] },
          { hooks: [foreign, handler("Stop", 3)] },
          { hooks: [handler("Stop", 7)] },
        ],
      },
    });
    const plan = planInstall(text, new Map([["Stop", [handler("Stop")]]]), settings);
    expect(plan.changes).toEqual([{ event: "Stop", action: "removed duplicate" }]);
    expect(JSON.parse(plan.next!)).toEqual({
      hooks: { Stop: [{ hooks: [handler("Stop")] }, { hooks: [foreign] }] },
    });
  });

  it("keeps Droid's non-event keys in a bare hooks.json", () => {
    const text = pretty({
      claudeHooksImported: true,
      importedClaudeHooks: ["Stop"],
      Stop: [{ hooks: [foreign] }],
    });
    const plan = planInstall(text, desired, bare);
    const next = JSON.parse(plan.next!) as Record<string, unknown>;
    expect(next["claudeHooksImported"]).toBe(true);
    expect(next["importedClaudeHooks"]).toEqual(["Stop"]);
    expect(next["Stop"]).toEqual([{ hooks: [foreign] }, { hooks: [handler("Stop")] }]);
  });

  it("keeps tabs and CRLF line ends", () => {
    const text = '{\r\n\t"model": "opus"\r\n}\r\n';
    const next = planInstall(text, new Map([["Stop", [handler("Stop")]]]), settings).next!;
    expect(next.startsWith('{\r\n\t"model": "opus",\r\n\t"hooks": {\r\n\t\t"Stop": [')).toBe(true);
    expect(next.replaceAll("\r\n", "")).not.toContain("\n");
  });

  it.each([
    ["a root that is a list", "[]", settings],
    ["hooks that is a list", pretty({ hooks: [] }), settings],
    ["an event that is an object", pretty({ hooks: { Stop: { hooks: [] } } }), settings],
    ["a group without hooks", pretty({ hooks: { Stop: [{ matcher: "" }] } }), settings],
    ["a wrapped droid hooks.json", pretty({ hooks: { Stop: [] } }), bare],
  ])("refuses %s and plans no change", (_name, text, file) => {
    const plan = planInstall(text, desired, file);
    expect(plan.conflicts).toHaveLength(1);
    expect(plan.next).toBe(text);
    expect(plan.changes).toEqual([]);
  });

  it("writes the template's shape for a new file", () => {
    expect(planInstall(undefined, new Map([["SessionEnd", [handler("SessionEnd")]]]), bare).next)
      .toMatchInlineSnapshot(`
      "{
        "SessionEnd": [
          {
            "hooks": [
              {
                "type": "command",
                "command": "\\"/usr/bin/node\\" \\"/opt/hn/bin/hook-notify.js\\" --client claude-code --timeout 5",
                "timeout": 5
              }
            ]
          }
        ]
      }
      "
    `);
  });
});

describe("planUninstall", () => {
  it.each([
    ["other keys", pretty({ model: "opus", env: { A: "1" } })],
    [
      "foreign hooks",
      pretty({
        hooks: { Stop: [{ hooks: [foreign] }], SessionEnd: [{ matcher: "", hooks: [foreign] }] },
      }),
    ],
    [
      "Droid keys",
      pretty({ hooks: { claudeHooksImported: true, Notification: [{ hooks: [foreign] }] } }),
    ],
  ])("gives back the original file byte for byte (%s)", (_name, original) => {
    const installed = planInstall(original, desired, settings).next;
    expect(installed).not.toBe(original);
    const removed = planUninstall(installed, undefined, settings);
    expect(removed.next).toBe(original);
    expect(removed.changes.map((c) => c.event).sort()).toEqual([...desired.keys()].sort());
  });

  it("removes the file it created (nothing else was in it)", () => {
    const installed = planInstall(undefined, desired, bare).next;
    expect(planUninstall(installed, undefined, bare).next).toBeUndefined();
  });

  it("keeps an emptied file when it may not delete it", () => {
    const installed = planInstall("{}", desired, settings).next;
    const next = planUninstall(installed, undefined, { ...settings, mayDelete: false }).next;
    expect(JSON.parse(next!)).toEqual({});
  });

  it("removes only the events asked for", () => {
    const installed = planInstall(undefined, desired, settings).next;
    const plan = planUninstall(installed, ["Stop"], settings);
    expect(Object.keys((JSON.parse(plan.next!) as { hooks: object }).hooks)).toEqual([
      "Notification",
      "SubagentStop",
      "SessionEnd",
    ]);
  });

  it("changes nothing when nothing is ours", () => {
    const text = pretty({ hooks: { Stop: [{ hooks: [foreign] }] } });
    expect(planUninstall(text, undefined, settings)).toEqual({
      next: text,
      changes: [],
      conflicts: [],
    });
    expect(planUninstall(undefined, undefined, settings)).toEqual({
      next: undefined,
      changes: [],
      conflicts: [],
    });
  });
});

// Claude Code's PermissionDenied holds two of ours: the "blocked" notification and, with
// install --approve --retry, the "Let it retry" ask. Install matches them by kind.
describe("two entries of ours on one event (a notification and an approve ask)", () => {
  const ask = (timeout = 35): CommandHandler => ({
    type: "command",
    command: `${CMD} approve --client claude-code --timeout ${timeout}`,
    timeout,
  });
  const both = new Map([["PermissionDenied", [handler("PermissionDenied"), ask()]]]);
  const notifyOnly = new Map([["PermissionDenied", [handler("PermissionDenied")]]]);
  const entries = (text: string | undefined): unknown =>
    (JSON.parse(text!) as { hooks: Record<string, unknown> }).hooks["PermissionDenied"];

  it("writes both, and a second run changes nothing", () => {
    const once = planInstall(undefined, both, settings);
    expect(once.changes).toEqual([{ event: "PermissionDenied", action: "added" }]);
    expect(entries(once.next)).toEqual([
      { hooks: [handler("PermissionDenied")] },
      { hooks: [ask()] },
    ]);
    expect(planInstall(once.next, both, settings)).toEqual({
      next: once.next,
      changes: [],
      conflicts: [],
    });
  });

  it("adds the ask beside an existing notification and keeps a hand-added ask, updating its timeout", () => {
    const notified = planInstall(undefined, notifyOnly, settings).next;
    const added = planInstall(notified, both, settings);
    expect(added.changes).toEqual([{ event: "PermissionDenied", action: "added" }]);
    expect(entries(added.next)).toEqual([
      { hooks: [handler("PermissionDenied")] },
      { hooks: [ask()] },
    ]);
    const byHand = pretty({
      hooks: {
        PermissionDenied: [
          { hooks: [handler("PermissionDenied")] },
          { hooks: [{ ...ask(10), command: `VAR=1 ${ask(10).command}` }] },
        ],
      },
    });
    const kept = planInstall(byHand, both, settings);
    expect(kept.changes).toEqual([{ event: "PermissionDenied", action: "updated" }]);
    expect(entries(kept.next)).toEqual([
      { hooks: [handler("PermissionDenied")] },
      { hooks: [{ ...ask(), command: `VAR=1 ${ask().command}` }] },
    ]);
  });

  it("without the ask, takes it out and says so; a second ask of the same kind is a duplicate", () => {
    const installed = planInstall(undefined, both, settings).next;
    const without = planInstall(installed, notifyOnly, settings);
    expect(without.changes).toEqual([
      { event: "PermissionDenied", action: "removed approve entry" },
    ]);
    expect(entries(without.next)).toEqual([{ hooks: [handler("PermissionDenied")] }]);
    const twice = pretty({
      hooks: {
        PermissionDenied: [
          { hooks: [ask()] },
          { hooks: [handler("PermissionDenied")] },
          { hooks: [ask()] },
        ],
      },
    });
    const deduped = planInstall(twice, both, settings);
    expect(deduped.changes).toEqual([{ event: "PermissionDenied", action: "removed duplicate" }]);
    expect(entries(deduped.next)).toEqual([
      { hooks: [ask()] },
      { hooks: [handler("PermissionDenied")] },
    ]);
  });

  it("an ask instead of a notification (Codex's PermissionRequest) takes the entry over in place", () => {
    const notified = pretty({
      hooks: {
        PermissionRequest: [
          { hooks: [{ ...handler("PermissionRequest"), statusMessage: "kept" }] },
        ],
      },
    });
    const asked = planInstall(notified, new Map([["PermissionRequest", [ask(150)]]]), settings);
    expect(asked.changes).toEqual([{ event: "PermissionRequest", action: "updated" }]);
    expect(JSON.parse(asked.next!)).toEqual({
      hooks: { PermissionRequest: [{ hooks: [{ ...ask(150), statusMessage: "kept" }] }] },
    });
  });

  it("uninstall removes both", () => {
    const installed = planInstall(undefined, both, settings).next;
    const removed = planUninstall(installed, undefined, settings);
    expect(removed.changes).toEqual([{ event: "PermissionDenied", action: "removed" }]);
    expect(removed.next).toBeUndefined();
  });
});
