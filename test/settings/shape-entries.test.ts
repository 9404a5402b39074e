// The flat-entries shape (settings/shape-entries.ts): hook-notify's entries go into, and out of, a
// hooks file other tools share (Cursor's hooks.json with its "version", Crush's crush.json with its
// other settings), and nothing that is not ours changes by one byte.
import { describe, expect, it } from "vitest";
import { eventsWithOurs } from "../../src/settings/file-shape.js";
import { findOurs } from "../../src/settings/jsonc-edit.js";
import {
  entriesEventMap,
  entriesShape,
  planEntriesInstall,
  planEntriesUninstall,
} from "../../src/settings/shape-entries.js";
import type { Desired, PlanFile } from "../../src/settings/plan.js";

const FILE: PlanFile = { shape: entriesShape, shown: "hooks.json", mayDelete: false };
const GONE: PlanFile = { ...FILE, mayDelete: true };
const ours = (event: string, timeout = 10): string =>
  `hook-notify --client x --event ${event} --timeout ${timeout}`;
const desired = (timeout = 10): Desired =>
  new Map([
    ["stop", [{ type: "command", command: ours("stop", timeout), timeout }]],
    ["sessionEnd", [{ type: "command", command: ours("sessionEnd", 5), timeout: 5 }]],
  ]);

// Another tool's hooks.json, as Cursor's documentation writes one: a stop hook with a loop_limit,
// a shell gate with a matcher, a prompt hook (no command) and a key of its own.
const SHARED = `{
  "version": 1,
  "hooks": {
    "stop": [
      { "command": ".cursor/hooks/audit.sh", "loop_limit": 3 }
    ],
    "beforeShellExecution": [
      { "command": "./gate.sh", "matcher": "rm|curl", "failClosed": true }
    ],
    "preToolUse": [{ "type": "prompt", "prompt": "Is this safe?" }]
  },
  "team": { "owner": "ops" }
}
`;

describe("the entries shape: install", () => {
  it("appends our entries to a shared file, keeping every other entry and key byte for byte", () => {
    const plan = planEntriesInstall(SHARED, desired(), FILE, 1);
    expect(plan.conflicts).toEqual([]);
    expect(plan.changes).toEqual([
      { event: "stop", action: "added" },
      { event: "sessionEnd", action: "added" },
    ]);
    const next = JSON.parse(plan.next!) as {
      version: number;
      hooks: Record<string, unknown[]>;
      team: unknown;
    };
    const before = JSON.parse(SHARED) as typeof next;
    expect(next.version).toBe(1);
    expect(next.team).toEqual(before.team);
    expect(next.hooks["stop"]).toEqual([
      ...before.hooks["stop"]!,
      { command: ours("stop"), timeout: 10 },
    ]);
    expect(next.hooks["sessionEnd"]).toEqual([{ command: ours("sessionEnd", 5), timeout: 5 }]);
    expect(next.hooks["beforeShellExecution"]).toEqual(before.hooks["beforeShellExecution"]);
    expect(next.hooks["preToolUse"]).toEqual(before.hooks["preToolUse"]);
    // Edited in place: the other tool's lines are still the same text.
    for (const line of SHARED.split("\n").filter((l) => l.includes('"'))) {
      expect(plan.next).toContain(line.trim());
    }
  });

  it("is idempotent: a second run with the same input changes nothing", () => {
    const once = planEntriesInstall(SHARED, desired(), FILE, 1).next!;
    const twice = planEntriesInstall(once, desired(), FILE, 1);
    expect(twice.changes).toEqual([]);
    expect(twice.next).toBe(once);
  });

  it("updates ours in place (the person's additions to the command kept) and drops a copy", () => {
    const text = JSON.stringify({
      version: 1,
      hooks: {
        stop: [
          { command: `NOTIFY=1 ${ours("stop", 30)}`, timeout: 30, name: "mine" },
          { command: "./other.sh" },
          { command: ours("stop", 30) },
        ],
      },
    });
    const plan = planEntriesInstall(text, desired(), FILE, 1);
    expect(plan.changes).toContainEqual({ event: "stop", action: "removed duplicate" });
    expect(plan.changes).toContainEqual({ event: "stop", action: "updated" });
    const next = JSON.parse(plan.next!) as { hooks: { stop: unknown[] } };
    expect(next.hooks.stop).toEqual([
      { command: `NOTIFY=1 ${ours("stop", 10)}`, timeout: 10, name: "mine" },
      { command: "./other.sh" },
    ]);
  });

  it("writes a new file with the version the client requires first, and none for a client that has none", () => {
    const cursor = planEntriesInstall(undefined, desired(), FILE, 1).next!;
    expect(Object.keys(JSON.parse(cursor) as object)).toEqual(["version", "hooks"]);
    expect(cursor.endsWith("\n")).toBe(true);
    const crush = planEntriesInstall(undefined, desired(), FILE, undefined).next!;
    expect(Object.keys(JSON.parse(crush) as object)).toEqual(["hooks"]);
  });

  it("adds the version to a shared file that lacks it, and refuses a version it does not write", () => {
    const plan = planEntriesInstall('{"hooks": {}}', desired(), FILE, 1);
    expect(plan.changes[0]).toEqual({ event: "version", action: "added" });
    expect((JSON.parse(plan.next!) as { version: number }).version).toBe(1);
    const refused = planEntriesInstall('{"version": 2, "hooks": {}}', desired(), FILE, 1);
    expect(refused.next).toBe('{"version": 2, "hooks": {}}');
    expect(refused.conflicts[0]).toMatch(
      /hooks\.json: "version" is 2, and hook-notify writes version 1/,
    );
  });

  it("keeps the comments and trailing commas of a JSONC file (where the client reads them)", () => {
    const text = `{
  // the model, chosen by hand
  "options": { "debug": false, },
  "hooks": {
    "PreToolUse": [
      { "matcher": "^bash$", "command": "./no-haskell.sh", }, // blocks ghc
    ],
  },
}
`;
    const plan = planEntriesInstall(text, desired(), FILE, undefined);
    expect(plan.conflicts).toEqual([]);
    expect(plan.next).toContain("// the model, chosen by hand");
    expect(plan.next).toContain("// blocks ghc");
    expect(plan.next).not.toContain('"version"');
    const back = planEntriesUninstall(plan.next, undefined, GONE, undefined);
    expect(back.next).toBe(text);
  });

  it("refuses a list that holds something other than entries, naming the place", () => {
    const plan = planEntriesInstall('{"hooks": {"stop": ["./x.sh"]}}', desired(), FILE, 1);
    expect(plan.conflicts).toEqual([
      'hooks.json: hooks.stop[0] is not a hook entry {"command": ...}. Fix it, then run again.',
    ]);
    const notList = planEntriesInstall('{"hooks": {"stop": {"command": "x"}}}', desired(), FILE, 1);
    expect(notList.conflicts[0]).toMatch(/hooks\.stop is not a list of hook entries/);
  });
});

describe("the entries shape: uninstall", () => {
  it("takes out only ours: the shared file is what it was before install", () => {
    const installed = planEntriesInstall(SHARED, desired(), FILE, 1).next!;
    const plan = planEntriesUninstall(installed, undefined, GONE, 1);
    expect(plan.changes).toEqual([
      { event: "stop", action: "removed" },
      { event: "sessionEnd", action: "removed" },
    ]);
    expect(plan.next).toBe(SHARED);
  });

  it("removes the file it created, version included, when nothing else is left", () => {
    const installed = planEntriesInstall(undefined, desired(), FILE, 1).next!;
    expect(planEntriesUninstall(installed, undefined, GONE, 1).next).toBeUndefined();
  });

  it("removes an event list it emptied, and keeps the other events with --events", () => {
    const installed = planEntriesInstall(SHARED, desired(), FILE, 1).next!;
    const plan = planEntriesUninstall(installed, ["sessionEnd"], GONE, 1);
    const next = JSON.parse(plan.next!) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(next.hooks)).toEqual(["stop", "beforeShellExecution", "preToolUse"]);
    expect(next.hooks["stop"]).toHaveLength(2);
  });

  it("keeps what the file had before install (its .bak): an empty list, the version, the hooks key", () => {
    const before = '{"version": 1, "hooks": {"stop": []}}\n';
    const installed = planEntriesInstall(before, desired(), FILE, 1).next!;
    const plan = planEntriesUninstall(installed, undefined, GONE, 1, {
      text: before,
      data: JSON.parse(before),
    });
    expect(JSON.parse(plan.next!)).toEqual({ version: 1, hooks: { stop: [] } });
  });

  it("leaves an entry that runs other commands too, and says so", () => {
    const text = JSON.stringify({ hooks: { stop: [{ command: `cd /x && ${ours("stop")}` }] } });
    const plan = planEntriesUninstall(text, undefined, GONE, undefined);
    expect(plan.next).toBe(text);
    expect(plan.warnings?.[0]).toMatch(/runs other commands too, so it was left in place/);
  });
});

describe("the entries shape: reading", () => {
  it("reads each entry as a group of one handler, so doctor and double-run checks see ours", () => {
    const installed = planEntriesInstall(SHARED, desired(), FILE, 1).next!;
    expect(eventsWithOurs(installed, entriesShape)).toEqual(["stop", "sessionEnd"]);
    const map = entriesEventMap(JSON.parse(installed)) as Record<string, unknown>;
    const [found] = findOurs(map["stop"]);
    expect(found).toMatchObject({ group: 1, handler: 0, value: { timeout: 10 } });
    // A prompt hook is not a command: never taken for ours.
    expect(findOurs(map["preToolUse"])).toEqual([]);
  });
});

describe("two entries of ours on one event in a flat list", () => {
  const ask = {
    type: "command" as const,
    command: "hook-notify approve --client x --timeout 35",
    timeout: 35,
  };
  const notify = { type: "command" as const, command: ours("stop"), timeout: 10 };
  const both: Desired = new Map([["stop", [notify, ask]]]);

  it("writes both, a second run changes nothing, and uninstall removes both", () => {
    const once = planEntriesInstall(undefined, both, GONE, undefined);
    expect(JSON.parse(once.next!)).toEqual({
      hooks: {
        stop: [
          { command: notify.command, timeout: 10 },
          { command: ask.command, timeout: 35 },
        ],
      },
    });
    const twice = planEntriesInstall(once.next, both, GONE, undefined);
    expect(twice.changes).toEqual([]);
    expect(twice.next).toBe(once.next);
    const without = planEntriesInstall(once.next, new Map([["stop", [notify]]]), GONE, undefined);
    expect(without.changes).toEqual([{ event: "stop", action: "removed approve entry" }]);
    expect(planEntriesUninstall(once.next, undefined, GONE, undefined).next).toBeUndefined();
  });
});
