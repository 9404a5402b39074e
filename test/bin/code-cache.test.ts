// bin/hook-notify.cjs: the V8 code cache of dist/cli.cjs and dist/hook.cjs. Real processes: the built binary with a
// throwaway HOME, and small bundles loaded through the loader in a child node.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { fixture, ROOT, runBin, tempHome } from "../helpers/run-bin.js";

const LOADER = join(ROOT, "bin", "hook-notify.cjs"); // required, it only exports the loader
const stop = () =>
  fixture("claude-code/Stop.json", { session_id: `cache-${String(Math.random())}` });
const cacheFolder = (home: string) => join(home, ".cache", "hook-notify");
const isRoot = process.getuid?.() === 0;

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-cache-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

// Loads `file` through the loader in a fresh node, with HOME = `home`; prints its exports.
function loadInChild(file: string, home: string, env: Record<string, string> = {}): string {
  const script = `process.stdout.write(JSON.stringify(require(${JSON.stringify(LOADER)}).requireCached(${JSON.stringify(file)})))`;
  const out = spawnSync(process.execPath, ["-e", script], {
    env: { HOME: home, PATH: process.env.PATH, ...env },
    encoding: "utf8",
  });
  expect(out.stderr).toBe("");
  return out.stdout;
}

// A bundle the loader recognises: the build id on its first line, as scripts/build.mjs stamps it.
function bundle(dir: string, name: string, id: string, value: string): string {
  const file = join(dir, name);
  writeFileSync(file, `var __hnBuild = "${id}";\nmodule.exports = { value: "${value}" };\n`);
  return file;
}

// Whether V8 takes `cache` (a kinded cache: its first line, then V8's data) for `file`, compiled
// as the loader compiles it, in a fresh node.
function acceptedByV8(cache: string, file: string): boolean {
  const script = [
    `const fs = require("node:fs"), vm = require("node:vm");`,
    `const data = fs.readFileSync(${JSON.stringify(cache)});`,
    `const cachedData = data.subarray(data.indexOf(10) + 1);`,
    `const source = fs.readFileSync(${JSON.stringify(file)}, "utf8");`,
    `const wrapper = "(function (exports, require, module, __filename, __dirname) { " + source + "\\n})";`,
    `const script = new vm.Script(wrapper, { filename: ${JSON.stringify(file)}, cachedData });`,
    `process.stdout.write(String(!script.cachedDataRejected));`,
  ].join("\n");
  const out = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  expect(out.stderr).toBe("");
  return out.stdout === "true";
}

describe("the V8 code cache of the hook's bundle", () => {
  it("is written after the first run (0600, named by the build id) and used after it", async () => {
    const home = tempHome();
    const first = await runBin(["--dry-run"], { input: stop(), env: home.env });
    // dist/hook.cjs keeps a cache only from a run that handed its event over (fast-path.test.ts).
    const [name, ...others] = readdirSync(cacheFolder(home.dir));
    expect(others).toEqual([]);
    const id = /^var __hnBuild = "([0-9a-f]{16})";/.exec(
      readFileSync(join(ROOT, "dist", "cli.cjs"), "utf8"),
    )?.[1];
    expect(name).toBe(`cli.cjs-${String(id)}-${process.version}-${process.arch}.v8`);
    const file = join(cacheFolder(home.dir), String(name));
    if (process.platform !== "win32") expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = statSync(file).mtimeMs;
    const second = await runBin(["--dry-run"], { input: stop(), env: home.env });
    expect(second.code).toBe(0);
    const plan = (stdout: string) =>
      stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { sink: string; title: string; body: string })
        .map(({ sink, title, body }) => ({ sink, title, body }));
    expect(plan(second.stdout)).toEqual(plan(first.stdout));
    expect(plan(second.stdout).map((line) => line.sink)).toEqual(["desktop", "sound"]);
    expect(statSync(file).mtimeMs).toBe(written); // accepted: not rewritten
  });

  it("covers the commands a person types: one cache, dist/commands.cjs's, used by the next command", async () => {
    const home = tempHome();
    const first = await runBin(["--help"], { env: home.env });
    expect(first.code).toBe(0);
    const names = readdirSync(cacheFolder(home.dir)).sort();
    expect(names.map((name) => name.split("-")[0])).toEqual(["commands.cjs"]);
    const file = join(cacheFolder(home.dir), String(names[0]));
    const written = statSync(file).mtimeMs;
    const again = await runBin(["--help"], { env: home.env });
    expect(again.stdout).toBe(first.stdout);
    expect(statSync(file).mtimeMs).toBe(written); // accepted: not rewritten
  });

  // Issue 41: the cache held only what its first writer compiled (doctor after --help compiled
  // most of itself on every run). Real processes: --help writes it, doctor adds its functions.
  it("holds what each kind of command compiled: a kind it lacks writes it again, once", async () => {
    const home = tempHome();
    await runBin(["--help"], { env: home.env });
    const [name, ...others] = readdirSync(cacheFolder(home.dir));
    expect(others).toEqual([]);
    const file = join(cacheFolder(home.dir), String(name));
    const kindsOf = () => /^kinds ([a-z,-]*) *\n/.exec(readFileSync(file, "latin1"))?.[1];
    expect(kindsOf()).toBe("help");
    const byHelp = statSync(file);
    const doctor = await runBin(["doctor"], { env: home.env });
    expect(doctor.stdout).toContain("desktop");
    expect(kindsOf()).toBe("help,doctor");
    const byDoctor = statSync(file);
    expect(byDoctor.size).toBeGreaterThan(byHelp.size); // what --help wrote and what doctor compiled
    expect(acceptedByV8(file, join(ROOT, "dist", "commands.cjs"))).toBe(true);
    // Doctor and --help again find what they compiled: nothing is written; a usage mistake adds no kind.
    await runBin(["doctor"], { env: home.env });
    await runBin(["--help"], { env: home.env });
    expect((await runBin(["log", "--no-such-flag"], { env: home.env })).code).toBe(2);
    expect(statSync(file).mtimeMs).toBe(byDoctor.mtimeMs);
    await runBin(["log"], { env: home.env });
    expect(kindsOf()).toBe("help,doctor,log");
    // Without its first line (an older loader's, or not ours) it is compiled past and replaced.
    const data = readFileSync(file);
    writeFileSync(file, data.subarray(data.indexOf(10) + 1), { mode: 0o600 });
    await runBin(["log"], { env: home.env });
    expect(kindsOf()).toBe("log");
  });

  it("replaces a corrupt cache, and the run is unaffected", async () => {
    const home = tempHome();
    await runBin(["--dry-run"], { input: stop(), env: home.env });
    const [name] = readdirSync(cacheFolder(home.dir));
    const file = join(cacheFolder(home.dir), String(name));
    const good = readFileSync(file);
    writeFileSync(file, Buffer.alloc(good.length, 0x5a));
    const run = await runBin(["--dry-run"], { input: stop(), env: home.env });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.split("\n")[0] ?? "")).toMatchObject({ sink: "desktop" });
    expect(readFileSync(file).equals(Buffer.alloc(good.length, 0x5a))).toBe(false);
  });

  it("removes the temp files killed runs left once they are a minute old, when it writes one", async () => {
    const home = tempHome();
    mkdirSync(cacheFolder(home.dir), { recursive: true });
    const old = `cli.cjs-0123456789abcdef-${process.version}-${process.arch}.v8.4242.${String(Date.now() - 120_000)}.tmp`;
    const fresh = `cli.cjs-0123456789abcdef-${process.version}-${process.arch}.v8.4243.${String(Date.now())}.tmp`;
    for (const name of [old, fresh]) writeFileSync(join(cacheFolder(home.dir), name), "");
    const run = await runBin(["--dry-run"], { input: stop(), env: home.env });
    expect(run.code).toBe(0);
    const left = readdirSync(cacheFolder(home.dir));
    expect(left).not.toContain(old);
    expect(left).toContain(fresh); // it may be a live run's, writing now
    expect(left.filter((name) => name.endsWith(".v8"))).toHaveLength(1);
  });

  it.runIf(process.platform !== "win32")(
    "neither blocks on a FIFO nor fails when the cache folder cannot be written",
    async () => {
      const home = tempHome();
      await runBin(["--dry-run"], { input: stop(), env: home.env });
      const [name] = readdirSync(cacheFolder(home.dir));
      const file = join(cacheFolder(home.dir), String(name));
      rmSync(file);
      spawnSync("mkfifo", [file]);
      const fifo = await runBin(["--client", "claude-code"], { input: stop(), env: home.env });
      expect(fifo).toMatchObject({ code: 0, stdout: "", signal: null });
      // A cache "folder" that is a file: nothing can be written under it.
      const blocked = tempHome({ XDG_CACHE_HOME: join(scratch(), "a-file") });
      writeFileSync(String(blocked.env.XDG_CACHE_HOME), "");
      const run = await runBin(["--client", "claude-code"], { input: stop(), env: blocked.env });
      expect(run).toMatchObject({ code: 0, stdout: "", signal: null });
      expect(blocked.logLines()).toHaveLength(1);
    },
  );

  it.runIf(process.platform !== "win32" && !isRoot)(
    "runs from a read-only cache folder without writing into it",
    async () => {
      const home = tempHome();
      mkdirSync(cacheFolder(home.dir), { recursive: true });
      chmodSync(cacheFolder(home.dir), 0o500);
      onTestFinished(() => {
        chmodSync(cacheFolder(home.dir), 0o700);
      });
      const run = await runBin(["--dry-run"], { input: stop(), env: home.env });
      expect(run.code).toBe(0);
      expect(readdirSync(cacheFolder(home.dir))).toEqual([]);
    },
  );

  it("never gives one build's cache to another build of the same length", () => {
    const dir = scratch();
    const home = join(dir, "home");
    const a = bundle(dir, "one.cjs", "a".repeat(16), "first");
    expect(loadInChild(a, home)).toBe('{"value":"first"}');
    expect(loadInChild(a, home)).toBe('{"value":"first"}');
    // The same file name and length, other content: a new build in place of the old one.
    bundle(dir, "one.cjs", "b".repeat(16), "other");
    expect(loadInChild(a, home)).toBe('{"value":"other"}');
    expect(readdirSync(cacheFolder(home))).toEqual([
      `one.cjs-${"b".repeat(16)}-${process.version}-${process.arch}.v8`,
    ]);
  });

  it("keeps this build's caches for other Nodes (two Nodes taking turns), not other builds'", () => {
    const dir = scratch();
    const home = join(dir, "home");
    const id = "d".repeat(16);
    const file = bundle(dir, "two.cjs", id, "two");
    mkdirSync(cacheFolder(home), { recursive: true });
    const otherNode = `two.cjs-${id}-v99.0.0-${process.arch}.v8`;
    const otherBuild = `two.cjs-${"e".repeat(16)}-v99.0.0-${process.arch}.v8`;
    for (const name of [otherNode, otherBuild])
      writeFileSync(join(cacheFolder(home), name), "a cache of another node");
    expect(loadInChild(file, home)).toBe('{"value":"two"}');
    expect(readdirSync(cacheFolder(home)).sort()).toEqual(
      [otherNode, `two.cjs-${id}-${process.version}-${process.arch}.v8`].sort(),
    );
  });

  it("loads a bundle without a build id as require() does, and HOOK_NOTIFY_CODE_CACHE=0 too", () => {
    const dir = scratch();
    const home = join(dir, "home");
    const plain = join(dir, "plain.cjs");
    writeFileSync(plain, 'module.exports = { value: "plain" };\n');
    expect(loadInChild(plain, home)).toBe('{"value":"plain"}');
    const off = bundle(dir, "off.cjs", "c".repeat(16), "off");
    expect(loadInChild(off, home, { HOOK_NOTIFY_CODE_CACHE: "0" })).toBe('{"value":"off"}');
    expect(() => readdirSync(cacheFolder(home))).toThrow(/ENOENT/);
  });

  // Issue 38 (redteam F1): a cache is code that runs. Planted by another user in a HOME a root
  // run keeps (sudo -E, macOS sudo), it must never run as root, and root creates nothing there.
  describe.runIf(isRoot)("another user's cache (tests run as root here)", () => {
    const USER = 1000;

    // Writes, as the real loader would name it, a cache compiled from a same-length source that
    // writes `marker`: V8 takes a cache for any source of the same length.
    function plant(file: string, home: string, marker: string): void {
      const source = readFileSync(file, "utf8");
      const evil = `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran");module.exports={value:"planted"};`;
      expect(evil.length).toBeLessThan(source.length);
      const padded = `${evil}${"/".repeat(source.length - evil.length - 1)}\n`;
      const id = /"([0-9a-f]{16})"/.exec(source)?.[1];
      const cache = join(
        cacheFolder(home),
        `${basename(file)}-${String(id)}-${process.version}-${process.arch}.v8`,
      );
      mkdirSync(cacheFolder(home), { recursive: true, mode: 0o700 });
      // Compiled in a child node, as the loader compiles (same flags), with the loader's wrapper.
      const compile = `const vm=require("vm");const s=${JSON.stringify(padded)};const w="(function (exports, require, module, __filename, __dirname) { "+s+"\\n})";require("fs").writeFileSync(${JSON.stringify(cache)},new vm.Script(w,{filename:${JSON.stringify(file)}}).createCachedData(),{mode:0o600})`;
      const out = spawnSync(process.execPath, ["-e", compile], { encoding: "utf8" });
      expect(out.stderr).toBe("");
    }

    function ownersUnder(dir: string): number[] {
      const found = new Set<number>([statSync(dir).uid]);
      for (const name of readdirSync(dir, { recursive: true }))
        found.add(lstatSync(join(dir, String(name))).uid);
      return [...found];
    }

    it("the plant works when the cache is the running user's own (the control)", () => {
      const dir = scratch();
      const home = join(dir, "home");
      const file = bundle(
        dir,
        "one.cjs",
        "d".repeat(16),
        "genuine-value-long-enough-for-the-planted-code-to-fit-in-it".repeat(3),
      );
      const marker = join(dir, "marker");
      plant(file, home, marker);
      expect(loadInChild(file, home)).toBe('{"value":"planted"}');
      expect(readFileSync(marker, "utf8")).toBe("ran");
    });

    it("a cache planted by uid 1000 in its own HOME does not run as root; root writes nothing there", () => {
      const dir = scratch();
      const home = join(dir, "home");
      const genuine = "genuine-value-long-enough-for-the-planted-code-to-fit-in-it".repeat(3);
      const file = bundle(dir, "one.cjs", "e".repeat(16), genuine);
      const marker = join(dir, "marker");
      plant(file, home, marker);
      spawnSync("chown", ["-R", `${USER}:${USER}`, home]);
      expect(loadInChild(file, home)).toBe(JSON.stringify({ value: genuine }));
      expect(existsSync(marker)).toBe(false);
      expect(ownersUnder(home)).toEqual([USER]);
      // The cache folder writable by others, in a HOME of root's own: ignored too.
      spawnSync("chown", ["-R", "0:0", home]);
      chmodSync(cacheFolder(home), 0o777);
      expect(loadInChild(file, home)).toBe(JSON.stringify({ value: genuine }));
      expect(existsSync(marker)).toBe(false);
    });

    it("never creates ~/.cache for root in a HOME owned by another user", () => {
      const dir = scratch();
      const home = join(dir, "home");
      mkdirSync(home);
      spawnSync("chown", [`${USER}:${USER}`, home]);
      const file = bundle(dir, "one.cjs", "f".repeat(16), "x");
      expect(loadInChild(file, home)).toBe('{"value":"x"}');
      expect(readdirSync(home)).toEqual([]);
    });
  });
});
