// Cursor: told apart from Auggie (both send conversation_id and workspace_roots) in both
// directions, and its hooks installed into a hooks.json other tools share, with its "version".
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clientOfPayload, clientOfRun } from "../../src/clients/detect.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";
import { runSettingsCommand, type SettingsArgs } from "../../src/settings/settings-command.js";
import { SETTINGS_ARGS, makeSandbox, readMaybe, type Sandbox } from "../settings/tree.js";

const PAYLOADS = join(import.meta.dirname, "..", "fixtures", "payloads");
const payload = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(PAYLOADS, name), "utf8")) as Record<string, unknown>;

async function run(box: Sandbox, action: "install" | "uninstall", args: Partial<SettingsArgs>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSettingsCommand(
    action,
    { ...SETTINGS_ARGS, client: "cursor", ...args },
    { machine: box.machine, out: (text) => out.push(text), err: (line) => err.push(line) },
  );
  return { code, out: out.join(""), err: err.join("\n") };
}

type HooksFile = { version?: number; hooks: Record<string, Record<string, unknown>[]> };
const read = async (file: string): Promise<HooksFile> =>
  JSON.parse((await readMaybe(file))!) as HooksFile;

describe("Cursor is recognised", () => {
  it.each([
    "stop-completed",
    "stop-error",
    "stop-aborted",
    "sessionEnd-completed",
    "sessionEnd-error",
  ])("by its %s payload", (name) => {
    expect(clientOfPayload(payload(`cursor-documented/${name}.json`))).toBe("cursor");
  });

  it("without cursor_version (optional), by its camelCase event name", () => {
    const raw = payload("cursor-documented/stop-completed.json");
    delete raw["cursor_version"];
    expect(clientOfPayload(raw)).toBe("cursor");
  });

  it("and Auggie's payloads, with the same two fields, stay Auggie's", () => {
    for (const name of ["auggie/Stop-end_turn.json", "auggie/SessionEnd.json"]) {
      expect(clientOfPayload(payload(name))).toBe("auggie");
    }
    for (const name of ["Stop-max_iterations.json", "Stop-interrupted.json"]) {
      expect(clientOfPayload(payload(`auggie-documented/${name}`))).toBe("auggie");
    }
  });

  it("by the variables of its hooks, and over Claude Code's, whose CLAUDE_PROJECT_DIR it sets too", () => {
    expect(clientOfRun(undefined, { CURSOR_PROJECT_DIR: "/p" })).toBe("cursor");
    expect(clientOfRun(undefined, { CURSOR_VERSION: "2.0.77", CLAUDE_PROJECT_DIR: "/p" })).toBe(
      "cursor",
    );
  });
});

// Another tool's ~/.cursor/hooks.json, as Cursor's documentation writes one.
const SHARED = `{
  "version": 1,
  "hooks": {
    "stop": [
      {
        "command": "./audit-stop.sh",
        "loop_limit": 3
      }
    ],
    "beforeShellExecution": [
      {
        "command": "./gate.sh",
        "matcher": "curl|wget"
      }
    ]
  }
}
`;

describe("Cursor install", () => {
  it("adds its entries beside another tool's, keeps version 1; a second run changes nothing; uninstall gives the file back", async () => {
    const box = await makeSandbox({ "home/.cursor/hooks.json": SHARED });
    const file = join(box.home, ".cursor/hooks.json");
    const installed1 = await run(box, "install", {});
    expect(installed1.code).toBe(0);
    expect(installed1.out).toContain("Cursor has no hook for an agent waiting for you");
    const json = await read(file);
    expect(json.version).toBe(1);
    expect(json.hooks["stop"]).toEqual([
      { command: "./audit-stop.sh", loop_limit: 3 },
      { command: expect.stringMatching(/--client cursor --timeout 10$/) as unknown, timeout: 10 },
    ]);
    expect(json.hooks["sessionEnd"]).toEqual([
      { command: expect.stringMatching(/--client cursor --timeout 5$/) as unknown, timeout: 5 },
    ]);
    expect(json.hooks["beforeShellExecution"]).toEqual([
      { command: "./gate.sh", matcher: "curl|wget" },
    ]);
    const installed = await readMaybe(file);
    expect((await run(box, "install", {})).out).toContain("No change");
    expect(await readMaybe(file)).toBe(installed);
    expect((await run(box, "uninstall", {})).code).toBe(0);
    expect(await readMaybe(file)).toBe(SHARED);
  });

  it("writes a new hooks.json with version 1 first, and removes it whole on uninstall", async () => {
    const box = await makeSandbox({ "home/.cursor/.keep": "" });
    const file = join(box.home, ".cursor/hooks.json");
    expect((await run(box, "install", {})).code).toBe(0);
    expect(Object.keys(await read(file))).toEqual(["version", "hooks"]);
    expect((await run(box, "uninstall", {})).code).toBe(0);
    expect(await readMaybe(file)).toBeUndefined();
  });

  it("keeps the comments of hooks.json (Cursor strips them before parsing)", async () => {
    const text = '{\n  // mine\n  "version": 1,\n  "hooks": {}\n}\n';
    const box = await makeSandbox({ "home/.cursor/hooks.json": text });
    const file = join(box.home, ".cursor/hooks.json");
    expect((await run(box, "install", {})).code).toBe(0);
    const installed = (await readMaybe(file))!;
    expect(installed).toContain("// mine");
    expect(installed).toContain("--client cursor");
    expect((await run(box, "uninstall", {})).code).toBe(0);
    expect(await readMaybe(file)).toBe(text);
  });

  it("refuses a hooks.json nested too deeply to edit, or with another tool's entry malformed, file intact", async () => {
    const deep = `{"version": 1, "hooks": {"stop": [${"[".repeat(5000)}${"]".repeat(5000)}]}}`;
    const malformed = '{"version": 1, "hooks": {"stop": ["./audit.sh"]}}\n';
    for (const [text, why] of [
      [deep, /hooks\.json: (.*nested too deeply|hooks\.stop\[0\] is not a hook entry)/],
      [malformed, /hooks\.stop\[0\] is not a hook entry/],
    ] as const) {
      const box = await makeSandbox({ "home/.cursor/hooks.json": text });
      const result = await run(box, "install", {});
      expect(result.code).toBe(1);
      expect(result.err).toMatch(why);
      expect(await readMaybe(join(box.home, ".cursor/hooks.json"))).toBe(text);
    }
  });

  it("puts the project's entries in .cursor/hooks.json, running the wrapper through CURSOR_PROJECT_DIR", async () => {
    const box = await makeSandbox();
    expect((await run(box, "install", { scope: "project" })).code).toBe(0);
    const json = await read(join(box.project, ".cursor/hooks.json"));
    expect(json.hooks["stop"]?.[0]?.["command"]).toBe(
      '"$CURSOR_PROJECT_DIR"/.cursor/hooks/hook-notify.sh --client cursor --timeout 10',
    );
    expect(await readMaybe(join(box.project, ".cursor/hooks/hook-notify.sh"))).toMatch(
      /^#!\/bin\/sh/,
    );
    expect((await run(box, "uninstall", { scope: "project" })).code).toBe(0);
    expect(await readMaybe(join(box.project, ".cursor/hooks.json"))).toBeUndefined();
  });

  it("runs beside hook-notify's Claude Code entries without a warning: Cursor feeds those its own payload, which they ignore", async () => {
    const box = await makeSandbox();
    expect((await run(box, "install", { client: "claude-code" })).code).toBe(0);
    const result = await run(box, "install", {});
    expect(result.code).toBe(0);
    expect(`${result.out}\n${result.err}`).not.toMatch(/twice/);
    for (const name of ["stop-completed", "sessionEnd-completed"]) {
      const text = readFileSync(join(PAYLOADS, `cursor-documented/${name}.json`), "utf8");
      expect(parseEvent(text, "claude-code")).toEqual({ ignored: name.split("-")[0] });
    }
  });
});
