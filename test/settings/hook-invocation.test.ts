import { describe, expect, it } from "vitest";
import type { CommandHandler } from "../../src/settings/hook-schema.js";
import { findInvocation, mergeCommand } from "../../src/settings/hook-invocation.js";
import { planInstall, planUninstall, type PlanFile } from "../../src/settings/plan.js";
import { settingsShape } from "../../src/settings/shape-settings.js";

const DESIRED = '"/usr/bin/node" "/opt/hn/bin/hook-notify.js" --client claude-code --timeout 10';
const OLD = "/old/bin/hook-notify --client claude-code --timeout 60";

describe("mergeCommand: the new invocation, with what the user added around it", () => {
  it.each([
    ["the plain command", OLD, DESIRED],
    ["an extra --config", `${OLD} --config /home/u/hn.json`, `${DESIRED} --config /home/u/hn.json`],
    [
      "--config= before our flags",
      "/old/hook-notify --config=/x.json --timeout 60",
      `${DESIRED} --config=/x.json`,
    ],
    ["an environment prefix", `FOO=1 BAR="a b" ${OLD}`, `FOO=1 BAR="a b" ${DESIRED}`],
    ["a redirect", `${OLD} 2>>/tmp/x`, `${DESIRED} 2>>/tmp/x`],
    ["a spaced redirect", `${OLD} >> "/tmp/my log" 2>&1`, `${DESIRED} >> "/tmp/my log" 2>&1`],
    [
      "all three, with npx",
      "HOOK_NOTIFY_DEBUG=1 npx hook-notify --config ~/hn.json 2>>/tmp/x",
      `HOOK_NOTIFY_DEBUG=1 ${DESIRED} --config ~/hn.json 2>>/tmp/x`,
    ],
    ["a command before it", `cd /work && ${OLD} || true`, `cd /work && ${DESIRED} || true`],
    ["the current command", DESIRED, DESIRED],
  ])("keeps %s", (_name, existing, merged) => {
    expect(mergeCommand(existing, DESIRED)).toBe(merged);
    expect(mergeCommand(merged, DESIRED)).toBe(merged); // a second run changes nothing
  });

  // Codex's PermissionRequest entry switches between the notification and install --approve's
  // `approve`: the command word is ours, swapped whole, while the user's own additions stay.
  it("swaps approve and the notification in both directions, keeping the user's --config", () => {
    const APPROVE =
      '"/usr/bin/node" "/opt/hn/bin/hook-notify.js" approve --client codex --timeout 150';
    const NOTIFY = '"/usr/bin/node" "/opt/hn/bin/hook-notify.js" --client codex --timeout 10';
    expect(mergeCommand(`${NOTIFY} --config /x.json`, APPROVE)).toBe(`${APPROVE} --config /x.json`);
    expect(mergeCommand(`${APPROVE} --config /x.json`, NOTIFY)).toBe(`${NOTIFY} --config /x.json`);
    expect(mergeCommand(APPROVE, APPROVE)).toBe(APPROVE);
  });

  it.each([
    ["inside sh -c", `sh -c '${OLD} 2>>/tmp/x'`],
    ["with a command substitution", `/old/hook-notify --config "$(cat /x)"`],
    ["with an open quote", `/old/hook-notify --config "/x`],
  ])("leaves a command %s alone, still as ours", (_name, existing) => {
    expect(findInvocation(existing)).toMatchObject({ kind: "untouchable" });
    expect(mergeCommand(existing, DESIRED)).toBeUndefined();
  });

  it.each(["echo hook-notify", "say done", "notify-send 'hook-notify finished'"])(
    "does not take %s for ours",
    (command) => {
      expect(findInvocation(command)).toBeUndefined();
    },
  );
});

const handler = (timeout: number): CommandHandler => ({
  type: "command",
  command: DESIRED.replace("--timeout 10", `--timeout ${timeout}`),
  timeout,
});
const desired = new Map([
  ["Stop", [handler(10)]],
  ["SessionEnd", [handler(5)]],
]);
const settings: PlanFile = { shape: settingsShape, shown: "settings.json", mayDelete: true };
const withStop = (command: string): string =>
  JSON.stringify(
    { hooks: { Stop: [{ hooks: [{ type: "command", command, timeout: 60 }] }] } },
    null,
    2,
  ) + "\n";
const stopCommands = (text: string): string[] =>
  (JSON.parse(text) as { hooks: { Stop: { hooks: { command: string }[] }[] } }).hooks.Stop.flatMap(
    (g) => g.hooks.map((h) => h.command),
  );

describe("install over an entry the user customised", () => {
  it("keeps the env prefix, the extra --config and the redirect, and never adds a second entry", () => {
    const text = withStop(`FOO=1 ${OLD} --config /home/u/hn.json 2>>/tmp/x`);
    const plan = planInstall(text, desired, settings);
    expect(plan.changes).toContainEqual({ event: "Stop", action: "updated" });
    expect(stopCommands(plan.next!)).toEqual([
      `FOO=1 ${DESIRED} --config /home/u/hn.json 2>>/tmp/x`,
    ]);
    expect(planInstall(plan.next, desired, settings).next).toBe(plan.next);
  });

  it("leaves an entry it cannot edit safely, says so, and adds no second one", () => {
    const text = withStop(`bash -c '${OLD} | tee -a /tmp/x'`);
    const plan = planInstall(text, desired, settings);
    expect(stopCommands(plan.next!)).toEqual([`bash -c '${OLD} | tee -a /tmp/x'`]);
    expect(plan.warnings).toHaveLength(1);
    expect(plan.warnings![0]).toMatch(/Stop: left as you wrote it/);
  });

  it("uninstall removes a customised entry, and leaves one that runs other commands too", () => {
    const text = withStop(`FOO=1 ${OLD} 2>>/tmp/x`);
    expect(planUninstall(text, undefined, settings).next).toBeUndefined();
    const compound = withStop(`say done; ${OLD}`);
    const plan = planUninstall(compound, undefined, settings);
    expect(plan.next).toBe(compound);
    expect(plan.warnings![0]).toMatch(/runs other commands too/);
  });
});
