// Keys from outside that name a member of Object.prototype ("toString", "constructor",
// "__proto__", "valueOf", "hasOwnProperty") are keys like any other, wherever they come from: a
// config (a ${VAR}, a sink's name, a fallback, an escalation's target, a template's placeholder), a
// project file, a hook event, a transcript line, the environment, a service's answer. Each case
// here crashed a run, passed a check it should fail, or was read through the prototype (src/own.ts).
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { own, setOwn } from "../src/own.js";
import { validateConfig } from "../src/config/validate-config.js";
import { mergeProjectConfig } from "../src/config/merge-project.js";
import { secretsOf } from "../src/link/config-mask.js";
import { fillTemplate } from "../src/message/template.js";
import { parseEvent } from "../src/pipeline/parse-event.js";
import { scrubValue } from "../src/redact.js";
import { titleOf } from "../src/pipeline/transcript-lines.js";
import { detectSessions } from "../src/service/watch/detect-sessions.js";
import { detectComputers } from "../src/service/watch/detect-computers.js";
import { labelOf } from "../src/commands/usage-table.js";
import { findPlace } from "../src/focus/place.js";
import { choosePlayer } from "../src/sinks/sound-player.js";

const NAMES = ["toString", "constructor", "__proto__", "valueOf", "hasOwnProperty"];
const webhook = { type: "webhook", url: "https://hooks.example.test/in/abc" };

describe("own and setOwn", () => {
  it("read and write every such name as a key", () => {
    const table: Record<string, number> = { a: 1 };
    for (const name of NAMES) expect(own(table, name)).toBeUndefined();
    const into: Record<string, unknown> = {};
    for (const name of NAMES) setOwn(into, name, name.length);
    expect(Object.getPrototypeOf(into)).toBe(Object.prototype);
    expect(Object.keys(into)).toEqual(NAMES);
    for (const name of NAMES) expect(own(into, name)).toBe(name.length);
  });
});

describe("a config", () => {
  it.each(NAMES)("${%s} is a variable that is not set, not a crash", (name) => {
    const json = { sinks: { hook: { ...webhook, url: `https://hooks.example.test/\${${name}}` } } };
    const result = validateConfig(json, { PATH: "/usr/bin" });
    expect(result.issues.join("\n")).toContain(`environment variable ${name} is not set`);
    expect(result.value.sinks["hook"]).toBeUndefined();
    expect(secretsOf(json, process.env)).toEqual(["https://hooks.example.test/"]);
  });

  it.each(NAMES)('names no sink "%s" in a fallback or an escalation', (name) => {
    const { issues } = validateConfig(
      {
        sinks: { hook: { ...webhook, fallback: [name] } },
        escalate: { afterSeconds: 60, to: [name] },
      },
      {},
    );
    expect(issues).toContain(`sinks.hook.fallback: no valid sink named "${name}"`);
    expect(issues.join("\n")).toContain(`escalate.to: no valid sink named "${name}"`);
  });

  it.each(NAMES)('a project file cannot narrow a sink "%s" the user does not have', (name) => {
    const user = validateConfig({ sinks: { hook: webhook } }, {}).value;
    const project = JSON.parse(`{"sinks": {"${name}": {"events": ["Stop"]}}}`) as unknown;
    const merged = mergeProjectConfig(user, project, {});
    expect(merged.issues.join("\n")).toContain(`sinks.${name}: a project file can only`);
    expect(Object.keys(merged.value.sinks)).toEqual(["hook"]);
    expect(Object.getPrototypeOf(merged.value.sinks)).toBe(Object.prototype);
  });

  it("keeps a template's {constructor} as written", () => {
    expect(fillTemplate("{constructor} {__proto__} {project}", { project: "p" })).toBe(
      "{constructor} {__proto__} p",
    );
  });
});

describe("a hook event", () => {
  it("with a __proto__ key is read from its own keys, and keeps that key", () => {
    const input =
      '{"__proto__": {"hook_event_name": "Notification", "message": "from the prototype"},' +
      ' "hook_event_name": "Stop", "session_id": "s1"}';
    const event = parseEvent(input);
    if ("ignored" in event) throw new Error(`ignored: ${event.ignored}`);
    expect(event.name).toBe("Stop");
    expect(JSON.stringify({ ...event, raw: undefined })).not.toContain("from the prototype");
    const { raw } = event;
    expect(Object.getPrototypeOf(raw)).toBe(Object.prototype);
    expect(Object.keys(raw)).toContain("__proto__");
    expect(own(raw, "__proto__")).toEqual({
      hook_event_name: "Notification",
      message: "from the prototype",
    });
  });

  it("with a __proto__ key keeps it when its secrets are masked", () => {
    const value = JSON.parse('{"__proto__": {"token": "s3cret-value-1"}, "a": 1}') as unknown;
    const masked = scrubValue(value, ["s3cret-value-1"]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
    expect(JSON.stringify(masked)).toBe('{"__proto__":{"token":"***"},"a":1}');
  });

  it("a transcript line of type constructor has no title", () => {
    expect(titleOf({ type: "constructor", undefined: "not a title" })).toBeUndefined();
  });
});

describe("the environment and the service", () => {
  it("TERM_PROGRAM=toString names no macOS terminal", () => {
    const place = findPlace({ TERM_PROGRAM: "toString" }, "darwin");
    expect(JSON.stringify(place)).not.toContain("native code");
  });

  it("a player program named constructor plays with no arguments of ours", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hn-own-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const program = join(dir, "constructor");
    await writeFile(program, "#!/bin/sh\nexit 0\n");
    await chmod(program, 0o755);
    const deps = { env: { PATH: dir }, platform: "linux" as const, osRelease: "6.1.0" };
    expect(choosePlayer({ player: program }, deps)).toEqual({
      name: program,
      path: program,
      args: [],
    });
  });

  it("a usage column named constructor is labelled from its name", () => {
    expect(labelOf("constructor")).toBe("CONSTRUCTOR");
  });

  it.each(NAMES)('a session and a computer with the id "%s" are tracked like any other', (id) => {
    const first = detectSessions({}, [{ sessionId: id, status: "running", updatedAt: 1 }]);
    expect(Object.keys(first.next)).toEqual([id]);
    const second = detectSessions(first.next, [
      { sessionId: id, status: "idle", updatedAt: 2, messageCount: 2 },
    ]);
    expect(second.facts.map((fact) => fact.sessionId)).toEqual([id]);
    const computers = detectComputers({}, [{ id, status: "error" }]);
    expect(computers.facts.map((fact) => fact.computerId)).toEqual([id]);
    expect(Object.keys(computers.next)).toEqual([id]);
    expect(detectComputers(computers.next, [{ id, status: "error" }]).facts).toEqual([]);
  });
});
