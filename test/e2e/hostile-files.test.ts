// Files hook-notify does not control cannot hold a hook past its budget, stall the worker or make
// it repeat or delete (issue 13, items 6 and 7). POSIX only: FIFOs and /dev/zero.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entryKey, type OutboxEntry } from "../../src/outbox/store.js";
import { startHttpServer } from "../helpers/http-server.js";
import { runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const posix = process.platform !== "win32";

// The hook's whole run, node start-up included, on a busy machine: its budget plus a margin.
const within = (timeoutSeconds: number) => timeoutSeconds * 1000 + 2500;

function projectWith(home: TempHome, makeFile: (file: string) => void): string {
  const project = join(home.dir, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  makeFile(join(project, ".hook-notify.json"));
  return project;
}

describe.runIf(posix)("files on the hook path are bounded and regular", () => {
  it("a project .hook-notify.json linked to /dev/zero: ignored, named, inside --timeout", async () => {
    const home = tempHome();
    const cwd = projectWith(home, (file) => {
      symlinkSync("/dev/zero", file);
    });
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "z", cwd });
    const result = await runBin(["--timeout", "3"], { input, env: home.env });
    expect(result).toMatchObject({ code: 0, signal: null, stdout: "" });
    expect(result.ms).toBeLessThan(within(3));
    const [line] = home.logLines();
    expect(line).toMatchObject({ event: "Stop" });
    expect(line?.issues).toEqual([expect.stringContaining(".hook-notify.json: not a regular")]);
  });

  it("a project .hook-notify.json that is a FIFO nobody writes: ignored, inside --timeout", async () => {
    const home = tempHome();
    const cwd = projectWith(home, (file) => execFileSync("mkfifo", [file]));
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "f", cwd });
    const result = await runBin(["--timeout", "3"], { input, env: home.env });
    expect(result).toMatchObject({ code: 0, signal: null, stdout: "" });
    expect(result.ms).toBeLessThan(within(3));
    expect(home.logLines()).toMatchObject([{ event: "Stop" }]);
  });

  it("a --config that is a FIFO: named on stderr, defaults used, inside --timeout", async () => {
    const home = tempHome();
    const fifo = join(home.dir, "config.fifo");
    execFileSync("mkfifo", [fifo]);
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "c" });
    const result = await runBin(["--timeout", "3", "--config", fifo], { input, env: home.env });
    expect(result).toMatchObject({ signal: null, stdout: "" });
    expect(result.ms).toBeLessThan(within(3));
    expect(result.stderr).toContain(fifo);
    expect(home.logLines()).toMatchObject([
      { event: "Stop", error: { code: "CONFIG_UNREADABLE" } },
    ]);
  });

  it("10,000 sinks: the run keeps its deadline; the extra sinks are named as ignored", async () => {
    const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "1" });
    const sinks = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`d${i}`, { type: "desktop" }]),
    );
    home.writeConfig({ sinks });
    const input = JSON.stringify({ hook_event_name: "Stop", session_id: "many" });
    const result = await runBin(["--timeout", "3"], { input, env: home.env });
    expect(result).toMatchObject({ code: 0, signal: null, stdout: "" });
    expect(result.ms).toBeLessThan(within(3));
    const [line] = home.logLines();
    expect(line?.issues).toEqual([expect.stringContaining("only the first 100")]);
  });
});

// An entry as the hook writes it, to place by hand under any name.
function entry(id: string, patch: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    version: 1,
    key: entryKey(id, "hook"),
    sinkName: "hook",
    notification: sampleNotification({ id }),
    createdAt: Date.now(),
    attempts: 0,
    notBefore: 0,
    ...patch,
  };
}

describe.runIf(posix)("outbox entries are regular files named by what they hold", () => {
  async function outboxHome() {
    const server = await startHttpServer();
    const home = tempHome();
    home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/h` } } });
    const outbox = join(home.dir, "state", "hook-notify", "outbox");
    const pending = join(outbox, "pending");
    mkdirSync(pending, { recursive: true });
    const put = (name: string, value: OutboxEntry) => {
      writeFileSync(join(pending, name), JSON.stringify(value));
    };
    return { server, home, outbox, pending, put };
  }

  it("a FIFO in pending/ does not stall flush: it is quarantined, the real entry is sent", async () => {
    const { server, home, outbox, pending, put } = await outboxHome();
    execFileSync("mkfifo", [join(pending, "aaa.json")]);
    const good = entry("good");
    put(`${good.key}.json`, good);
    const result = await runBin(["flush"], { env: home.env, killAfterMs: 15_000 });
    expect(result.signal).toBeNull();
    expect(server.requests).toHaveLength(1);
    expect(readdirSync(pending)).toEqual([]);
    expect(readdirSync(join(outbox, "corrupt"))).toEqual([expect.stringMatching(/^aaa\.json\./)]);
  });

  it("an entry under another name than its key is quarantined, not sent again and again", async () => {
    const { server, home, outbox, pending, put } = await outboxHome();
    put("copy-of-entry.json", entry("renamed"));
    const first = await runBin(["flush"], { env: home.env });
    const second = await runBin(["flush"], { env: home.env });
    expect([first.signal, second.signal]).toEqual([null, null]);
    expect(server.requests).toHaveLength(0);
    expect(readdirSync(pending)).toEqual([]);
    expect(readdirSync(join(outbox, "corrupt"))).toHaveLength(1);
  });

  it("a key with ../ never makes the worker unlink a file outside the outbox", async () => {
    const { server, home, outbox, put } = await outboxHome();
    const victim = join(outbox, "..", "victim.json");
    writeFileSync(victim, "{}");
    const hostile = entry("evil", { key: "../../victim" });
    put("evil.json", hostile);
    await runBin(["flush"], { env: home.env });
    expect(existsSync(victim)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});
