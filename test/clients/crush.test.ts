// Crush: told apart from every other client by its payload and its hooks' variables, and its
// hooks installed into crush.json beside the person's own settings and hooks (strict JSON).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { clientOfPayload, clientOfRun } from "../../src/clients/detect.js";
import { runSettingsCommand, type SettingsArgs } from "../../src/settings/settings-command.js";
import { SETTINGS_ARGS, makeSandbox, readMaybe, type Sandbox } from "../settings/tree.js";

const PAYLOADS = join(import.meta.dirname, "..", "fixtures", "payloads");
const payload = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(PAYLOADS, name), "utf8")) as Record<string, unknown>;

// The data of a crush.json.
const hooksOf = (text: string) =>
  parse(text, [], { allowTrailingComma: true }) as {
    hooks: Record<string, { command: string; timeout?: number; matcher?: string }[]>;
  };

async function run(box: Sandbox, action: "install" | "uninstall", args: Partial<SettingsArgs>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSettingsCommand(
    action,
    { ...SETTINGS_ARGS, client: "crush", ...args },
    { machine: box.machine, out: (text) => out.push(text), err: (line) => err.push(line) },
  );
  return { code, out: out.join(""), err: err.join("\n") };
}

describe("Crush is recognised", () => {
  it.each(["PermissionRequest", "TurnEnd", "StopFailure", "SessionEnd"])(
    "by its %s payload (its event name under event)",
    (name) => {
      expect(clientOfPayload(payload(`crush-documented/${name}.json`))).toBe("crush");
    },
  );

  it("and no other client's payload is taken for Crush's", () => {
    for (const name of ["auggie/Stop-end_turn.json", "qwen-code/Stop.json"]) {
      expect(clientOfPayload(payload(name))).not.toBe("crush");
    }
    // Claude Code's and Codex's names for an event, and OpenCode's bus events, are not "event".
    expect(clientOfPayload({ hook_event_name: "Stop", session_id: "s" })).toBeUndefined();
    expect(clientOfPayload({ type: "session.idle", properties: { sessionID: "s" } })).not.toBe(
      "crush",
    );
  });

  it("by the variable its hooks get (CRUSH_SESSION_ID), not by the markers its bash tool sets too", () => {
    expect(clientOfRun(undefined, { CRUSH_SESSION_ID: "313909e", CRUSH: "1" })).toBe("crush");
    expect(clientOfRun(undefined, { CRUSH: "1", AGENT: "crush" })).toBeUndefined();
  });
});

// A project's crush.json as Crush's hooks documentation writes one (strict JSON, which Crush
// requires): a PreToolUse gate, and settings that are not hooks.
const CRUSH_JSON = `{
  "options": { "debug": false },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "^bash$",
        "command": "./no-haskell.sh"
      }
    ]
  }
}
`;

describe("Crush install", () => {
  it("adds its four entries to the user's crush.json (seconds), a second run changes nothing", async () => {
    const box = await makeSandbox({ "home/.config/crush/crush.json": CRUSH_JSON });
    const installed = await run(box, "install", {});
    expect(installed.code).toBe(0);
    expect(installed.out).toContain("restart crush to pick up the hooks");
    const file = join(box.home, ".config/crush/crush.json");
    const text = (await readMaybe(file))!;
    expect(text).toContain('"command": "./no-haskell.sh"');
    expect(text).not.toContain('"version"');
    const { hooks } = hooksOf(text);
    expect(hooks["PreToolUse"]).toEqual([{ matcher: "^bash$", command: "./no-haskell.sh" }]);
    for (const [event, seconds] of [
      ["PermissionRequest", 10],
      ["TurnEnd", 10],
      ["StopFailure", 10],
      ["SessionEnd", 2],
    ] as const) {
      expect(hooks[event]).toEqual([
        {
          command: expect.stringMatching(`--client crush --timeout ${seconds}$`) as unknown,
          timeout: seconds,
        },
      ]);
    }
    expect((await run(box, "install", {})).out).toContain("No change");
    expect(await readMaybe(file)).toBe(text);
    expect((await run(box, "uninstall", {})).code).toBe(0);
    expect(await readMaybe(file)).toBe(CRUSH_JSON);
  });

  it("refuses a crush.json with comments (Crush would not load it), file intact; --fix-jsonc rewrites it", async () => {
    const text = '{\n  // the model, chosen by hand\n  "options": { "debug": false },\n}\n';
    const box = await makeSandbox({ "home/.config/crush/crush.json": text });
    const file = join(box.home, ".config/crush/crush.json");
    const refused = await run(box, "install", {});
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(
      /crush\.json.*Crush refuses a crush\.json that is not strict JSON.*--fix-jsonc/s,
    );
    expect(await readMaybe(file)).toBe(text);
    expect((await run(box, "install", { fixJsonc: true })).code).toBe(0);
    const fixed = (await readMaybe(file))!;
    expect(JSON.parse(fixed)).toMatchObject({ options: { debug: false } });
    expect(hooksOf(fixed).hooks["TurnEnd"]).toHaveLength(1);
  });

  it("follows CRUSH_GLOBAL_CONFIG, then XDG_CONFIG_HOME, as Crush does", async () => {
    const box = await makeSandbox();
    box.machine.env = { CRUSH_GLOBAL_CONFIG: join(box.root, "g"), XDG_CONFIG_HOME: "/nowhere" };
    expect((await run(box, "install", {})).code).toBe(0);
    expect(await readMaybe(join(box.root, "g/crush.json"))).toContain("--client crush");
    box.machine.env = { XDG_CONFIG_HOME: join(box.root, "xdg") };
    expect((await run(box, "install", {})).code).toBe(0);
    expect(await readMaybe(join(box.root, "xdg/crush/crush.json"))).toContain("--client crush");
  });

  it("puts the project's entries in crush.json, running the wrapper through CRUSH_PROJECT_DIR", async () => {
    const box = await makeSandbox({ "project/crush.json": CRUSH_JSON });
    expect((await run(box, "install", { scope: "project" })).code).toBe(0);
    const { hooks } = hooksOf((await readMaybe(join(box.project, "crush.json")))!);
    expect(hooks["TurnEnd"]?.[0]?.command).toBe(
      '"$CRUSH_PROJECT_DIR"/.crush/hooks/hook-notify.sh --client crush --timeout 10',
    );
    expect(await readMaybe(join(box.project, ".crush/hooks/hook-notify.sh"))).toMatch(
      /^#!\/bin\/sh/,
    );
    expect((await run(box, "uninstall", { scope: "project" })).code).toBe(0);
    expect(await readMaybe(join(box.project, "crush.json"))).toBe(CRUSH_JSON);
    expect(await readMaybe(join(box.project, ".crush/hooks/hook-notify.sh"))).toBeUndefined();
  });

  it("--events takes hook-notify's names: Stop is Crush's TurnEnd", async () => {
    const box = await makeSandbox();
    expect((await run(box, "install", { events: ["Stop"] })).code).toBe(0);
    const json = JSON.parse((await readMaybe(join(box.home, ".config/crush/crush.json")))!) as {
      hooks: object;
    };
    expect(Object.keys(json.hooks)).toEqual(["TurnEnd"]);
  });
});
