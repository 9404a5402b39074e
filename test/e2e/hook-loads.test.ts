import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, fixture, handedOverRun, tempHome } from "../helpers/run-bin.js";

const PRELOAD = join(ROOT, "test", "fixtures", "preload", "report-loads.cjs");

interface Loads {
  builtins: string[];
  zod: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

// Runs the built binary with `input` as a regular file on stdin (as `hook-notify < event.json`
// does) or through a pipe (as agent clients do), and reports what it loaded.
function runAndReport(
  args: string[],
  input: string,
  env: Record<string, string | undefined>,
  via: "file" | "pipe",
): Promise<Loads> {
  const dir = env.HOME ?? "";
  const report = join(dir, "loads.json");
  const inputFile = join(dir, "event.json");
  writeFileSync(inputFile, input);
  const stdinFd = via === "file" ? openSync(inputFile, "r") : "pipe";
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...env, NODE_OPTIONS: `--require ${PRELOAD}`, HN_LOADS_FILE: report },
    stdio: [stdinFd, "pipe", "pipe"],
  });
  if (typeof stdinFd === "number") closeSync(stdinFd);
  child.stdin?.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const loads = JSON.parse(readFileSync(report, "utf8")) as Pick<Loads, "builtins" | "zod">;
      // The log line is the worker's, which runs the handed-over event (PROTOCOL.md).
      void handedOverRun(env).then(() => {
        resolve({ ...loads, code, stdout, stderr });
      });
    });
  });
}

// What the last worker a run of runAndReport started loaded (the preload's report at its exit).
const workerLoads = (dir: string): Pick<Loads, "builtins" | "zod"> =>
  JSON.parse(readFileSync(join(dir, "loads.json.worker"), "utf8")) as Pick<
    Loads,
    "builtins" | "zod"
  >;

// Issue #19: what a hook run loads is time the agent waits for. node:tty drags in net and ~27
// stream modules; only stdin that is a character device can be a terminal and needs it.
describe("what a hook run loads", () => {
  it.each(["file", "pipe"] as const)("stdin from a %s: node:tty is not loaded", async (via) => {
    const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
    const input = fixture("claude-code/Stop.json", { session_id: `loads-${via}` });
    const run = await runAndReport(["--timeout", "5"], input, home.env, via);
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.builtins).not.toContain("tty");
  });

  // With a live worker (most hooks of a session) the hook knocks and exits: no net, no streams.
  // A hook that finds no worker starts one through child_process, the one public API that starts
  // a process (issue 37: no process_wrap), which loads net and the stream modules: that is all.
  it("stdin from a file: no net and no streams with a live worker; child_process's alone when it starts one", async () => {
    const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0", HOOK_NOTIFY_WORKER_IDLE_SECONDS: "60" });
    const hook = (session: string) =>
      runAndReport(
        ["--timeout", "5"],
        fixture("claude-code/Stop.json", { session_id: session }),
        home.env,
        "file",
      );
    const first = await hook("loads-file-first");
    expect(first.code).toBe(0);
    expect(first.builtins).toContain("child_process");
    expect(first.builtins).not.toContain("tty");
    // The worker it started offers (its stamp) and stays (its lock) for the next hook.
    const outbox = join(home.dir, "state", "hook-notify", "outbox");
    const offers = () =>
      ["fast.json", "worker.lock"].every((name) => existsSync(join(outbox, name)));
    await expect.poll(offers, { timeout: 20_000 }).toBe(true);
    const run = await hook("loads-file-net");
    expect(run.code).toBe(0);
    expect(run.builtins.filter((name) => /^(net|stream|tty|child_process)$/.test(name))).toEqual(
      [],
    );
  });

  // zod is evaluated only when a schema is used: a config file, or a field of the wrong type.
  it.each(["hook", "dry-run"])(
    "%s with no config file and a well-formed event: no zod",
    async (mode) => {
      const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
      const input = fixture("claude-code/Stop.json", { session_id: `loads-zod-${mode}` });
      const args = mode === "dry-run" ? ["--dry-run"] : ["--timeout", "5"];
      const run = await runAndReport(args, input, home.env, "file");
      expect(run.code).toBe(0);
      if (mode === "dry-run") expect(run.stdout).toContain('"sink":"desktop"');
      else expect(run.stdout).toBe("");
      expect(run.zod).toBe(false);
      // The hook's flags are read by src/commands/hook-argv.ts, not node:util's parseArgs.
      expect(run.builtins).not.toContain("internal/util/parse_args/parse_args");
    },
  );

  it("a config file is validated by the schema (zod loads)", async () => {
    const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
    home.writeConfig({ sinks: { ding: { type: "sound" } } });
    const input = fixture("claude-code/Stop.json", { session_id: "loads-config" });
    const run = await runAndReport(["--dry-run"], input, home.env, "file");
    expect(run.zod).toBe(true);
    expect(run.stdout).toContain('"sink":"ding"');
  });

  // Issue #41: a cold worker replays the parse memos the last worker kept (src/config/PARSE-MEMO.md)
  // and evaluates no zod before its banner, nor after: in its bundle zod is a module of stand-ins
  // (scripts/build.mjs, lazy-zod) that loads the real one on the first schema built.
  it("a cold worker that replays its parse memos evaluates no zod", async () => {
    const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
    home.writeConfig({ sinks: { ding: { type: "sound" } } });
    const lock = join(home.dir, "state", "hook-notify", "outbox", "worker.lock");
    const first = fixture("claude-code/Stop.json", { session_id: "loads-memo-1" });
    const made = await runAndReport(["--timeout", "5"], first, home.env, "file");
    expect(made.code).toBe(0);
    // The first worker validated the config with zod, kept its memos and left.
    await expect.poll(() => existsSync(lock), { timeout: 20_000 }).toBe(false);
    expect(workerLoads(home.dir)).toMatchObject({ zod: true });
    const second = fixture("claude-code/Stop.json", { session_id: "loads-memo-2" });
    const run = await runAndReport(["--timeout", "5"], second, home.env, "file");
    expect(run).toMatchObject({ code: 0, stdout: "", zod: false });
    await expect.poll(() => existsSync(lock), { timeout: 20_000 }).toBe(false);
    expect(workerLoads(home.dir)).toMatchObject({ zod: false });
    expect(home.logLines().map((line) => line.via)).toEqual(["worker", "worker"]);
  });

  // The hook with no stamp (the first ever, here with a config file) hands the event over as it
  // is: the worker's run validates the config and the event (zod loads there, for the message).
  it("a field of the wrong type is dropped in zod's words, by the worker; the hook loads no zod", async () => {
    const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
    home.writeConfig({ sinks: { ding: { type: "sound" } } });
    const input = fixture("claude-code/Stop.json", { session_id: "loads-field", cwd: 42 });
    const run = await runAndReport(["--timeout", "5"], input, home.env, "file");
    expect(run).toMatchObject({ code: 0, stdout: "", zod: false });
    expect(home.logLines()[0]?.issues).toEqual([
      "hook event: cwd: Invalid input: expected string, received number; dropped",
    ]);
  });

  // What a run says on stderr goes out in one write per line, without building console and
  // process.stderr (the stream modules).
  it("--dry-run that says why sinks are skipped: the lines, and no stream modules", async () => {
    const home = tempHome({
      HOOK_NOTIFY_LOCAL_SINKS: "0",
      SSH_CONNECTION: "10.0.0.2 50000 10.0.0.1 22",
    });
    const input = fixture("claude-code/Stop.json", { session_id: "loads-stderr" });
    const run = await runAndReport(["--dry-run"], input, home.env, "file");
    expect(run.stderr).toContain("hook-notify: skipped desktop: ");
    expect(run.stderr).toContain("hook-notify: skipped sound: ");
    expect(run.builtins.filter((name) => /^(net|stream|tty)$/.test(name))).toEqual([]);
  });
});
