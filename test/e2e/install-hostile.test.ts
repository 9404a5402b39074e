import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { BIN, NODE_PATH } from "../helpers/run-bin.js";

// The installer as a person runs it (the built binary), against what else happens on a machine:
// sudo with HOME kept, and another program writing the same settings file while install runs.

// UserPromptSubmit: the light entry that records when the person answered (escalation);
// StopFailure: a turn that ended on an API error; PermissionDenied: an action auto mode blocked
// (each installed since it became a default event).
const EVENTS = [
  "Notification",
  "Stop",
  "SubagentStop",
  "SessionEnd",
  "StopFailure",
  "PermissionDenied",
  "UserPromptSubmit",
];
const USER = { uid: 1000, gid: 1000 };
const isRoot = process.getuid?.() === 0;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

// `hook-notify <action> --client claude-code --scope user -y` with HOME = home, as the caller.
function runSettings(action: "install" | "uninstall", home: string): Promise<Run> {
  const env = { HOME: home, XDG_STATE_HOME: join(home, ".state"), PATH: NODE_PATH };
  const args = [BIN, action, "--client", "claude-code", "--scope", "user", "-y"];
  const child = spawn(process.execPath, args, { env, cwd: home });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      resolve({ code, stdout, stderr });
    }),
  );
}

async function tempHome(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "hook-notify-hostile-"));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  const home = join(root, "home");
  await mkdir(home);
  return home;
}

async function ownerOf(path: string): Promise<{ uid: number; gid: number; mode: number }> {
  const info = await stat(path);
  return { uid: info.uid, gid: info.gid, mode: info.mode & 0o777 };
}

// hook-notify's handlers per event, as the client would read the file.
function oursPerEvent(text: string): Record<string, number> {
  const root = JSON.parse(text) as { hooks?: Record<string, { hooks: { command: string }[] }[]> };
  const out: Record<string, number> = {};
  for (const [event, groups] of Object.entries(root.hooks ?? {})) {
    const count = groups.flatMap((g) => g.hooks).filter((h) => h.command.includes("hook-notify"));
    if (count.length > 0) out[event] = count.length;
  }
  return out;
}

const ONE_EACH = Object.fromEntries(EVENTS.map((e) => [e, 1]));

describe.runIf(isRoot)("sudo hook-notify install with HOME kept (run as root)", () => {
  it("keeps the owner and mode of settings.json and gives its .bak the same", async () => {
    const home = await tempHome();
    const file = join(home, ".claude", "settings.json");
    await mkdir(dirname(file));
    await writeFile(file, JSON.stringify({ model: "opus" }, null, 2) + "\n");
    await chmod(file, 0o640);
    for (const path of [home, dirname(file), file]) await chown(path, USER.uid, USER.gid);

    const installed = await runSettings("install", home);
    expect(installed.stderr).toBe("");
    expect(installed.code).toBe(0);
    expect(oursPerEvent(await readFile(file, "utf8"))).toEqual(ONE_EACH);
    expect(await ownerOf(file)).toEqual({ ...USER, mode: 0o640 });
    expect(await ownerOf(`${file}.bak`)).toEqual({ ...USER, mode: 0o640 });

    const removed = await runSettings("uninstall", home);
    expect(removed.code).toBe(0);
    expect(await ownerOf(file)).toEqual({ ...USER, mode: 0o640 });
    // The file holds again what the .bak held: uninstall removes the .bak install took.
    await expect(stat(`${file}.bak`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("gives a new settings file and the folders it needs the owner of the folder they go in", async () => {
    const home = await tempHome();
    await chown(home, USER.uid, USER.gid);
    const installed = await runSettings("install", home);
    expect(installed.code).toBe(0);
    const file = join(home, ".claude", "settings.json");
    expect(oursPerEvent(await readFile(file, "utf8"))).toEqual(ONE_EACH);
    expect(await ownerOf(dirname(file))).toMatchObject(USER);
    expect(await ownerOf(file)).toMatchObject(USER);
    expect(existsSync(`${file}.hook-notify.lock`)).toBe(false);
  });
});

/** A settings file large enough that planning takes a while, with foreign content to keep. */
function bigSettings(): string {
  const env: Record<string, string> = {};
  for (let i = 0; i < 6000; i++) env[`VAR_${i}`] = "v".repeat(300);
  return JSON.stringify({ model: "opus", env }, null, 2) + "\n";
}

// Another program (a real process): once install holds its lock (it has read the file and is
// working), it reads the file, adds its own key and renames its version into place: once, or
// over and over until told to stop on stdin. It prints "ready", then the last count it wrote.
const WRITER = `
const { existsSync, readFileSync, writeFileSync, renameSync } = require("node:fs");
const [file, mode] = process.argv.slice(1);
let count = 0;
function write() {
  const data = JSON.parse(readFileSync(file, "utf8"));
  data.otherProgram = ++count;
  writeFileSync(file + ".other", JSON.stringify(data, null, 2) + "\\n");
  renameSync(file + ".other", file);
}
let loop;
const finish = () => {
  clearInterval(loop);
  if (mode === "once" && count === 0) write();
  process.stdout.write(count + "\\n");
  process.exit(0);
};
process.stdin.on("data", finish);
process.stdout.write("ready\\n");
const wait = setInterval(() => {
  if (!existsSync(file + ".hook-notify.lock")) return;
  clearInterval(wait);
  if (mode === "once") setTimeout(write, 20);
  else loop = setInterval(write, 2);
}, 1);
`;

/** The other program: `stop` ends it and resolves with the last count it wrote. */
interface Writer {
  stop: () => Promise<number>;
}

async function startWriter(file: string, mode: "once" | "loop"): Promise<Writer> {
  const child = spawn(process.execPath, ["-e", WRITER, file, mode]);
  onTestFinished(() => {
    child.kill();
  });
  let out = "";
  child.stdout.setEncoding("utf8");
  await new Promise<void>((resolve) => {
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.startsWith("ready\n")) resolve();
    });
  });
  const closed = new Promise<number>((resolve) =>
    child.on("close", () => {
      resolve(Number(out.slice("ready\n".length).trim()));
    }),
  );
  return {
    stop: () => {
      child.stdin.end("stop\n");
      return closed;
    },
  };
}

describe("another program writes settings.json while install runs", () => {
  it("its update is kept: install notices the change before its rename and starts over", async () => {
    const home = await tempHome();
    const file = join(home, ".claude", "settings.json");
    await mkdir(dirname(file));
    await writeFile(file, bigSettings());
    const writer = await startWriter(file, "once");
    const installed = await runSettings("install", home);
    expect(await writer.stop()).toBe(1);
    expect(installed.stderr).toBe("");
    expect(installed.code).toBe(0);
    const text = await readFile(file, "utf8");
    expect((JSON.parse(text) as { otherProgram?: number }).otherProgram).toBe(1);
    expect(oursPerEvent(text)).toEqual(ONE_EACH);
  });

  it("a file that keeps changing ends in a clear refusal, and the other program's last write stands", async () => {
    const home = await tempHome();
    const file = join(home, ".claude", "settings.json");
    await mkdir(dirname(file));
    await writeFile(file, bigSettings());
    const writer = await startWriter(file, "loop");
    const installed = await runSettings("install", home);
    const last = await writer.stop();
    const data = JSON.parse(await readFile(file, "utf8")) as { otherProgram?: number };
    expect(data.otherProgram).toBe(last);
    expect(installed.stdout).toBe("");
    expect(installed.code).toBe(1);
    const lines = installed.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("~/.claude/settings.json");
    expect(lines[0]).toMatch(/changed|changing/);
    expect(lines[0]).toMatch(/ again\./);
  }, 60_000);
});
