// The full path's hand-over (src/link/hand-over.ts, PROTOCOL.md "a hook" step 4): the event is
// written masked and a live worker is knocked; a worker of another build or with other ${VAR}
// values keeps the event with the hook; with no worker to start, the hook takes it back.
import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { buildId } from "../../src/build-id.js";
import { envPrint, writeStamp, type FastStamp } from "../../src/link/stamp.js";
import { handOverEvent } from "../../src/link/hand-over.js";
import { outboxEnv } from "../helpers/outbox-env.js";

const SECRET = "https://hooks.example.test/services/handOverSECRETtoken0123456789";

async function scene(stamp: Partial<FastStamp> | undefined, env: Record<string, string> = {}) {
  const outbox = await outboxEnv({});
  const deps = { ...outbox.deps, env: { ...outbox.deps.env, ...env } };
  mkdirSync(outbox.paths.root, { recursive: true, mode: 0o700 });
  const fifo = join(outbox.paths.root, "worker.test.fifo");
  let reader: number | undefined;
  if (stamp !== undefined) {
    execFileSync("mkfifo", ["-m", "600", fifo]);
    reader = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    onTestFinished(() => {
      if (reader !== undefined) closeSync(reader);
    });
    const names = ["HN_URL"];
    writeStamp(outbox.paths.stamp, {
      version: 1,
      build: buildId(),
      pid: process.pid,
      fifo,
      config: { path: outbox.configPath, state: "absent" },
      env: { names, salt: "s", print: envPrint(names, "s", deps.env) },
      mask: { bases: [65_539, 65_543], width: 4, items: [] },
      ...stamp,
    });
  }
  const events = () => {
    try {
      return readdirSync(outbox.paths.events).filter((name) => name.endsWith(".json"));
    } catch {
      return [];
    }
  };
  return { outbox, deps, events };
}

const event = (message: string) =>
  JSON.stringify({ hook_event_name: "Notification", session_id: "s1", message });
const request = (raw: string) => ({
  raw,
  secrets: [SECRET],
  args: { config: undefined, timeout: 10, client: "claude-code" as const, event: undefined },
  started: 1_700_000_000_000,
});

describe("handOverEvent", () => {
  it("writes the event with every configured secret masked (raw, \\/ and \\u escapes) and knocks", async () => {
    const { deps, events, outbox } = await scene({}, { HN_URL: "x" });
    const escaped = Array.from({ length: SECRET.length }, (_, i) => SECRET.charCodeAt(i))
      .map((code) => `\\u${code.toString(16).padStart(4, "0")}`)
      .join("");
    const raw = event(`a ${SECRET} b SLASH c`)
      .replace("SLASH", SECRET.replaceAll("/", "\\/"))
      .replace('c"', `${escaped}"`);
    expect(JSON.parse(raw)).toBeTruthy();
    expect(handOverEvent(deps, request(raw))).toBe("handed");
    const [name] = events();
    const onDisk = readFileSync(join(outbox.paths.events, name as string), "utf8");
    const written = JSON.parse(onDisk) as { payload: string; args: unknown; receivedAt: number };
    expect(JSON.stringify(JSON.parse(written.payload))).not.toContain("handOverSECRETtoken");
    expect(onDisk).not.toContain("handOverSECRETtoken");
    expect(JSON.parse(written.payload)).toMatchObject({ message: "a *** b *** ***" });
    expect(written).toMatchObject({ receivedAt: 1_700_000_000_000, args: { timeout: 10 } });
  });

  it("keeps the event when the live worker sees other ${VAR} values", async () => {
    const { deps, events } = await scene({}, { HN_URL: "x" });
    const other = { ...deps, env: { ...deps.env, HN_URL: "y" } };
    expect(handOverEvent(other, request(event("hi")))).toBe("kept: another worker");
    expect(events()).toEqual([]);
  });

  it("keeps the event when the live worker runs another build", async () => {
    const { deps, events } = await scene({ build: "an-older-build" }, { HN_URL: "x" });
    expect(handOverEvent(deps, request(event("hi")))).toBe("kept: another worker");
    expect(events()).toEqual([]);
  });

  it("takes the event back when no worker reads the knock and none can be started", async () => {
    // No stamp, and vitest runs src/: no dist/worker.cjs beside it to start.
    const { deps, events } = await scene(undefined);
    expect(handOverEvent(deps, request(event("hi")))).toBe("kept: no worker could be started");
    expect(events()).toEqual([]);
  });

  it("keeps the event when the outbox cannot be written", async () => {
    const { deps, outbox } = await scene(undefined);
    // events/ is a file: even root cannot put an entry in it.
    writeFileSync(outbox.paths.events, "not a folder");
    expect(handOverEvent(deps, request(event("hi")))).toBe("kept: cannot write");
  });
});
