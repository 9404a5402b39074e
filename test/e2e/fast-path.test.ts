// The hook's fast path (issue #19): a worker that stays between hooks offers to run their whole
// events (outbox/fast.json + a FIFO); the hook writes the event to outbox/events/ and returns.
// The built binary and the worker it starts, as real processes; an in-process D-Bus notification
// service and a fake paplay on the hook's PATH; a real HTTP server. Nothing here measures time.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { fakeBin } from "../helpers/fake-bin.js";
import { fakeNotificationBus, type FakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

type Line = Record<string, unknown> & { outcomes?: Record<string, unknown>[] };
interface Stamp {
  pid: number;
  fifo: string;
  config: { path: string; state: unknown };
}

const outbox = (home: TempHome) => join(home.dir, "state", "hook-notify", "outbox");
const readStamp = (home: TempHome): Stamp | undefined => {
  try {
    return JSON.parse(readFileSync(join(outbox(home), "fast.json"), "utf8")) as Stamp;
  } catch {
    return undefined;
  }
};
const events = (home: TempHome): string[] => {
  const dir = join(outbox(home), "events");
  return existsSync(dir) ? readdirSync(dir) : [];
};
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
let sessions = 0;
const stopEvent = () =>
  fixture("claude-code/Stop.json", { session_id: `fast-${String(sessions++)}` });
const runLines = (home: TempHome): Line[] =>
  (home.logLines() as Line[]).filter((line) => line.event !== undefined);
const lineOf = (home: TempHome, session: string): Line | undefined =>
  runLines(home).find((line) => line.session === session);

// A home whose hooks see an in-process notification bus and a fake player, and whose worker
// stays `idle` seconds.
async function setUp(idle = "60", extra: Record<string, string> = {}) {
  const bin = fakeBin(["paplay"]);
  const bus = await fakeNotificationBus();
  const home = tempHome({ HOOK_NOTIFY_WORKER_IDLE_SECONDS: idle, DISPLAY: ":7", ...extra });
  const env = {
    ...home.env,
    ...bin.env,
    ...bus.env,
    PATH: `${bin.dir}:${String(home.env.PATH)}`,
  };
  onTestFinished(() => {
    const stamp = readStamp(home);
    if (stamp && alive(stamp.pid)) process.kill(stamp.pid, "SIGCONT");
  });
  return { bin, bus, home, env };
}

// The first hook of a session hands its event over with its own mask (no stamp yet) and starts the
// worker, which then offers.
async function warmUp(home: TempHome, env: Record<string, string | undefined>): Promise<Stamp> {
  const first = await runBin(["--client", "claude-code"], { input: stopEvent(), env });
  expect(first).toMatchObject({ code: 0, stdout: "" });
  await expect.poll(() => readStamp(home)?.pid, { timeout: 20_000 }).toBeGreaterThan(0);
  return readStamp(home) as Stamp;
}

const callsFor = (bus: FakeNotificationBus, title: string) =>
  bus.calls().filter((call) => call.summary.includes(title) || call.body.includes(title));

describe("the hook's fast path with a live worker", () => {
  it("hands the event over: the worker runs it with the hook's display and PATH; the hook starts nothing", async () => {
    const { bin, bus, home, env } = await setUp();
    await warmUp(home, env);
    await expect.poll(() => bin.calls().length + bus.calls().length, { timeout: 20_000 }).toBe(2);
    const session = `fast-handed-${String(Date.now())}`;
    const run = await runBin(["--client", "claude-code", "--timeout", "10"], {
      input: fixture("claude-code/Stop.json", { session_id: session }),
      env: { ...env, DISPLAY: ":9" },
    });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await expect.poll(() => lineOf(home, session)?.via, { timeout: 20_000 }).toBe("worker");
    const line = lineOf(home, session) as Line;
    expect(line).toMatchObject({ event: "Stop", client: "claude-code", project: "shop-api" });
    expect(line.outcomes?.map(({ sink, ok }) => ({ sink, ok }))).toEqual([
      { sink: "desktop", ok: true },
      { sink: "sound", ok: true },
    ]);
    await expect.poll(() => bin.calls().length + bus.calls().length, { timeout: 20_000 }).toBe(4);
    expect(bin.calls()[1]?.env.DISPLAY).toBe(":9");
    expect(events(home)).toEqual([]);
    const doctor = await runBin(["doctor"], { env });
    expect(doctor.stdout).toContain("hooks hand it their whole event (fast path");
  });

  it("a configured secret the agent quotes never reaches the disk, even while the event waits", async () => {
    const server = await startHttpServer();
    const secretUrl = `${server.url}/hooks/fastPathSECRETtoken0123456789`;
    const { home, env } = await setUp("60", { HN_FAST_HOOK_URL: secretUrl });
    home.writeConfig({
      sinks: { hook: { type: "webhook", url: "${HN_FAST_HOOK_URL}", events: ["Notification"] } },
    });
    const stamp = await warmUp(home, env);
    // A stopped worker: alive (its FIFO has a reader), but it cannot take the event yet.
    process.kill(stamp.pid, "SIGSTOP");
    const session = `fast-secret-${String(Date.now())}`;
    const quoted = fixture("claude-code/Notification.json", {
      session_id: session,
      // An upper-case copy too: scrub ignores case, and so does the hook (issue 38, F7).
      message: `Post to ${secretUrl} or to "${JSON.stringify(secretUrl).slice(1, -1)}"? (${encodeURIComponent(secretUrl)}) or ESCAPED or ${secretUrl.toUpperCase()}`,
    });
    // The same secret written with JSON's \u escapes (a client may escape any character).
    const escaped = Array.from({ length: secretUrl.length }, (_, i) => secretUrl.charCodeAt(i))
      .map((code) => `\\u${code.toString(16).padStart(4, "0")}`)
      .join("");
    const quotedEscaped = quoted.replace("ESCAPED", escaped);
    expect(escaped).not.toContain("fastPathSECRETtoken0123456789");
    expect(JSON.stringify(JSON.parse(quotedEscaped))).toContain("fastPathSECRETtoken0123456789");
    const run = await runBin(["--client", "claude-code"], {
      input: quotedEscaped,
      env,
      settle: false,
    });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    const waiting = events(home);
    expect(waiting).toHaveLength(1);
    const onDisk = readFileSync(join(outbox(home), "events", waiting[0] as string), "utf8");
    expect(onDisk.toLowerCase()).not.toContain("fastpathsecrettoken0123456789");
    // Read as the worker reads it: no escape hides the secret either.
    const payload = (JSON.parse(onDisk) as { payload: string }).payload;
    expect(JSON.stringify(JSON.parse(payload))).not.toContain("fastPathSECRETtoken0123456789");
    expect(onDisk).toContain("Post to ***");
    process.kill(stamp.pid, "SIGCONT");
    const [request] = await server.waitForRequests(1, 20_000);
    expect(request?.body).toContain("Post to ***");
    expect(request?.body).not.toContain("fastPathSECRETtoken0123456789");
    await expect.poll(() => lineOf(home, session)?.via, { timeout: 20_000 }).toBe("worker");
    // The notification's id is the hook's, written with the event (link/inbox.ts).
    const { id } = JSON.parse(onDisk) as { id: string };
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(runLines(home).find((line) => line.session === session)).toMatchObject({ id });
    await expect.poll(() => events(home), { timeout: 20_000 }).toEqual([]);
    const everything = (readdirSync(home.dir, { recursive: true }) as string[])
      .map((name) => join(home.dir, name))
      .filter((file) => !file.endsWith(".fifo") && !file.endsWith(".sock"))
      .map((file) => {
        try {
          return readFileSync(file, "utf8");
        } catch {
          return ""; // a folder
        }
      })
      .join("\n");
    expect(everything).not.toContain("fastPathSECRETtoken0123456789");
  });

  it("with the worker killed, the hook still hands its event over and starts a worker that runs it, once", async () => {
    const { bus, home, env } = await setUp();
    const stamp = await warmUp(home, env);
    process.kill(stamp.pid, "SIGKILL");
    await expect.poll(() => alive(stamp.pid), { timeout: 20_000 }).toBe(false);
    const session = `fast-dead-${String(Date.now())}`;
    const run = await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", {
        session_id: session,
        last_assistant_message: "dead worker",
      }),
      env,
    });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    // The hook ran nothing itself: the worker it started did (PROTOCOL.md, "cold hand-over").
    await expect.poll(() => lineOf(home, session)?.via, { timeout: 20_000 }).toBe("worker");
    expect(lineOf(home, session)?.outcomes?.map(({ sink, ok }) => ({ sink, ok }))).toEqual([
      { sink: "desktop", ok: true },
      { sink: "sound", ok: true },
    ]);
    await expect.poll(() => events(home), { timeout: 20_000 }).toEqual([]);
    await expect.poll(() => callsFor(bus, "dead worker").length, { timeout: 20_000 }).toBe(1);
    // The new worker offers again.
    await expect.poll(() => readStamp(home)?.pid, { timeout: 20_000 }).not.toBe(stamp.pid);
  });

  it("an edited config: that hook loads it and hands over all the same, the worker looks again, the next one takes the fast path", async () => {
    const { home, env } = await setUp();
    await warmUp(home, env);
    const before = readStamp(home) as Stamp;
    home.writeConfig({ sinks: { desktop: { type: "desktop" } } });
    const edited = `fast-edited-${String(Date.now())}`;
    await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: edited }),
      env,
    });
    // The hook loaded the new config to mask the event, then gave it to the worker (PROTOCOL.md).
    expect(lineOf(home, edited)?.via).toBe("worker");
    expect(lineOf(home, edited)?.outcomes?.map(({ sink }) => sink)).toEqual(["desktop"]);
    await expect
      .poll(() => JSON.stringify(readStamp(home)?.config.state), { timeout: 20_000 })
      .not.toBe(JSON.stringify(before.config.state));
    const next = `fast-next-${String(Date.now())}`;
    await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: next }),
      env,
    });
    await expect.poll(() => lineOf(home, next)?.via, { timeout: 20_000 }).toBe("worker");
    expect(lineOf(home, next)?.outcomes?.map(({ sink }) => sink)).toEqual(["desktop"]);
  });

  it("an edited config: a live worker writes the stamp again by itself, so the first hook after the edit takes the fast path", async () => {
    const { home, env } = await setUp();
    home.writeConfig({ sinks: { desktop: { type: "desktop" }, sound: { type: "sound" } } });
    await warmUp(home, env);
    const before = readStamp(home) as Stamp;
    home.writeConfig({ sinks: { desktop: { type: "desktop" } } });
    // No hook ran since the edit: the worker saw the file change.
    await expect
      .poll(() => JSON.stringify(readStamp(home)?.config.state), { timeout: 20_000 })
      .not.toBe(JSON.stringify(before.config.state));
    expect(readStamp(home)?.pid).toBe(before.pid);
    const edited = `fast-watched-${String(Date.now())}`;
    await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: edited }),
      env,
    });
    await expect.poll(() => lineOf(home, edited)?.via, { timeout: 20_000 }).toBe("worker");
    expect(lineOf(home, edited)?.outcomes?.map(({ sink }) => sink)).toEqual(["desktop"]);
  });

  it("a ${VAR} the config uses with another value in the hook: the hook runs it itself", async () => {
    // (Queued remote deliveries are sent by the worker with its own environment, as before;
    // what the fingerprint keeps from the worker is the routing, e.g. a sink the worker would
    // leave out for want of a variable the hook has.)
    const server = await startHttpServer();
    const { home, env } = await setUp("60", { HN_FAST_PATH: "/worker-value" });
    home.writeConfig({
      sinks: { hook: { type: "webhook", url: `${server.url}\${HN_FAST_PATH}` } },
    });
    await warmUp(home, env);
    const session = `fast-env-${String(Date.now())}`;
    await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: session }),
      env: { ...env, HN_FAST_PATH: "/hook-value" },
    });
    expect(lineOf(home, session)?.via).toBeUndefined();
    const same = `fast-same-${String(Date.now())}`;
    await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: same }),
      env,
    });
    await expect.poll(() => lineOf(home, same)?.via, { timeout: 20_000 }).toBe("worker");
  });

  it("dist/hook.cjs gets its code cache from the first hook that hands its event over, and keeps it", async () => {
    const { home, env } = await setUp();
    const cache = join(home.dir, ".cache", "hook-notify");
    const hookCaches = () =>
      (existsSync(cache) ? readdirSync(cache) : []).filter((name) => name.startsWith("hook.cjs-"));
    // The first hook ever hands its event over too (no stamp: its own mask, issue #41).
    await warmUp(home, env);
    expect(hookCaches()).toHaveLength(1);
    const first = `fast-cache-${String(Date.now())}`;
    await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: first }),
      env,
    });
    await expect.poll(() => lineOf(home, first)?.via, { timeout: 20_000 }).toBe("worker");
    const [name, ...others] = hookCaches();
    expect(others).toEqual([]);
    expect(name).toMatch(/^hook\.cjs-[0-9a-f]{16}-/);
    const written = statSync(join(cache, String(name))).mtimeMs;
    const second = `fast-cache-2-${String(Date.now())}`;
    const run = await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: second }),
      env,
    });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await expect.poll(() => lineOf(home, second)?.via, { timeout: 20_000 }).toBe("worker");
    expect(statSync(join(cache, String(name))).mtimeMs).toBe(written); // accepted: not rewritten
  });

  it("--dry-run and --wait never hand the event over", async () => {
    const { home, env } = await setUp();
    await warmUp(home, env);
    const dry = await runBin(["--dry-run"], { input: stopEvent(), env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('"sink":"desktop"');
    const session = `fast-wait-${String(Date.now())}`;
    const wait = await runBin(["--wait", "--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: session }),
      env,
    });
    expect(wait.stdout).toContain("desktop");
    expect(lineOf(home, session)?.via).toBeUndefined();
    expect(events(home)).toEqual([]);
  });

  it("a stdin that never closes and never holds an event still ends the run by itself", async () => {
    const { home, env } = await setUp();
    await warmUp(home, env);
    // node gives its child a socket for stdin: the read waits in the thread pool, which node
    // cannot leave by exiting, so the hook ends itself by a signal once the timeout is logged.
    const run = await runBin(["--client", "claude-code", "--timeout", "2"], {
      neverClose: true,
      env,
      killAfterMs: 60_000,
    });
    expect(run.ms).toBeLessThan(30_000); // not the test's own kill: the hook ended itself
    expect(run.stdout).toBe("");
    expect(
      (home.logLines() as Line[]).some(
        (line) => (line.error as { code?: string } | undefined)?.code === "INPUT_TIMEOUT",
      ),
    ).toBe(true);
    expect(events(home)).toEqual([]);
  });

  it(
    "hooks arriving while the worker comes and goes: every event notified exactly once",
    { timeout: 180_000 },
    async () => {
      // A worker that leaves 1 s after its last work: hooks land before, during and after its exit.
      const { bin, bus, home, env } = await setUp("1");
      const count = 14;
      for (let i = 0; i < count; i++) {
        const session = `fast-race-${String(i)}`;
        const run = await runBin(["--client", "claude-code"], {
          input: fixture("claude-code/Stop.json", {
            session_id: session,
            last_assistant_message: `race turn ${String(i)}.`,
          }),
          env,
        });
        expect(run).toMatchObject({ code: 0, stdout: "" });
        await new Promise((resolve) => setTimeout(resolve, (i * 397) % 1_600));
      }
      // The banner carries the turn's text; the sound is the same file every time.
      for (let i = 0; i < count; i++) {
        const title = `race turn ${String(i)}.`;
        await expect.poll(() => callsFor(bus, title).length, { timeout: 30_000 }).toBe(1);
      }
      const sounds = () => bin.calls().filter((call) => call.program === "paplay").length;
      await expect.poll(sounds, { timeout: 30_000 }).toBe(count);
      const sessionsLogged = runLines(home)
        .map((line) => line.session)
        .filter((session) => String(session).startsWith("fast-race-"));
      expect(sessionsLogged.sort()).toEqual(
        Array.from({ length: count }, (_, i) => `fast-race-${String(i)}`).sort(),
      );
      await expect.poll(() => events(home), { timeout: 20_000 }).toEqual([]);
    },
  );
});

// Not a test of timing: the FIFO goes with the worker that leaves; the stamp stays for the next
// hook, which hands its event over all the same and starts a worker (PROTOCOL.md).
describe("a leaving worker withdraws its offer", () => {
  it("removes its FIFO when it exits; the next hook hands over to a worker it starts", async () => {
    const { home, env } = await setUp("1");
    // Banners not followed: a worker that follows one stays a process for focusSeconds.
    home.writeConfig({ sinks: { desktop: { type: "desktop", focusSeconds: 0 } } });
    const stamp = await warmUp(home, env);
    await expect.poll(() => alive(stamp.pid), { timeout: 30_000 }).toBe(false);
    expect(existsSync(stamp.fifo)).toBe(false);
    expect(readStamp(home)?.pid).toBe(stamp.pid);
    const session = `fast-cold-${String(Date.now())}`;
    const run = await runBin(["--client", "claude-code"], {
      input: fixture("claude-code/Stop.json", { session_id: session }),
      env,
    });
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
    await expect.poll(() => lineOf(home, session)?.via, { timeout: 20_000 }).toBe("worker");
    await expect.poll(() => events(home), { timeout: 20_000 }).toEqual([]);
  });
});
