import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import {
  chmod,
  chown,
  lstat,
  mkdir,
  readFile,
  readdir,
  readlink,
  symlink,
  writeFile,
} from "node:fs/promises";
import { dirname, join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { parse } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { HookNotifyError } from "../../src/errors.js";
import { runSettingsCommand } from "../../src/settings/settings-command.js";
import { commitJobs } from "../../src/settings/commit-jobs.js";
import { launcherPath } from "../../src/settings/launcher.js";
import {
  prepareInstall,
  prepareUninstall,
  type SettingsRequest,
} from "../../src/settings/prepare.js";
import { BIN } from "../helpers/run-bin.js";
import { CORPUS, type CorpusCase } from "./corpus.js";
import { SETTINGS_ARGS, makeSandbox, modeOf, type Sandbox } from "./tree.js";

type Client = CorpusCase["client"];

const FILES: Record<Client, string> = {
  "claude-code": "home/.claude/settings.json",
  droid: "home/.factory/hooks.json",
};
const EVENTS = ["Notification", "Stop", "SubagentStop", "SessionEnd"];
/** The script the launcher install writes in the sandbox runs (see tree.ts's scriptPath). */
const OUR_SCRIPT = "/opt/hook notify/bin/hook-notify.js";

// Every hook-notify entry, current or older, is a command that names the program.
const isOurs = (handler: unknown): boolean =>
  isObject(handler) &&
  handler["type"] === "command" &&
  typeof handler["command"] === "string" &&
  handler["command"].includes("hook-notify");

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// The event map of a parsed file: the root of Droid's hooks.json, "hooks" of settings.json.
const eventMap = (root: unknown, client: Client): unknown =>
  client === "droid" ? root : isObject(root) ? root["hooks"] : undefined;

// The parsed content minus hook-notify's entries and the empty containers install/uninstall add or drop.
function foreignOnly(root: unknown, client: Client): unknown {
  if (!isObject(root)) return root;
  const map = eventMap(root, client);
  if (!isObject(map)) return root;
  const cleaned: Record<string, unknown> = {};
  for (const key of Object.keys(map)) {
    const groups = map[key];
    if (!Array.isArray(groups)) {
      cleaned[key] = groups;
      continue;
    }
    const kept = groups.flatMap((group: unknown) => {
      if (!isObject(group) || !Array.isArray(group["hooks"])) return [group];
      const hooks = group["hooks"].filter((h: unknown) => !isOurs(h));
      const hadOurs = hooks.length < group["hooks"].length;
      return hadOurs && hooks.length === 0 ? [] : [{ ...group, hooks }];
    });
    if (kept.length > 0) cleaned[key] = kept;
  }
  if (client === "droid") return cleaned;
  const rest = copyOwn(root);
  delete rest["hooks"];
  return Object.keys(cleaned).length > 0 ? { ...rest, hooks: cleaned } : rest;
}

// Own keys only, also "__proto__" (JSON.parse makes it an own key; a spread would not copy it).
function copyOwn(root: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(root))
    Object.defineProperty(out, key, {
      value: root[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return Object.setPrototypeOf(out, Object.prototype) as Record<string, unknown>;
}

// What the client itself would read: strict JSON.parse, no BOM, no comments. A blank file is what
// the user had before install (uninstall gives it back), read as no settings.
const clientParse = (text: string | undefined): unknown =>
  text === undefined || text.trim() === "" ? {} : (JSON.parse(text) as unknown);

// The original's data: strict when it is strict JSON, else as JSONC (for --fix-jsonc cases).
function originalData(content: string | Buffer | undefined): unknown {
  if (content === undefined) return {};
  const text = content.toString().replace(/^\uFEFF/, "");
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return parse(text, [], { allowTrailingComma: true }) as unknown;
  }
}

// hook-notify's handlers per event in a parsed file.
function oursPerEvent(root: unknown, client: Client): Map<string, Record<string, unknown>[]> {
  const out = new Map<string, Record<string, unknown>[]>();
  const map = eventMap(root, client);
  if (!isObject(map)) return out;
  for (const [event, groups] of Object.entries(map)) {
    if (!Array.isArray(groups)) continue;
    const ours = groups
      .flatMap((g: unknown) =>
        isObject(g) && Array.isArray(g["hooks"]) ? (g["hooks"] as unknown[]) : [],
      )
      .filter(isOurs) as Record<string, unknown>[];
    if (ours.length > 0) out.set(event, ours);
  }
  return out;
}

const requestFor = (client: Client, fixJsonc = false): SettingsRequest => ({
  clients: [client],
  scope: "user",
  events: undefined,
  timeout: undefined,
  fixJsonc,
});

/** A refusal or a written result of one install/uninstall run, in process. */
type Attempt = { error: HookNotifyError } | { error: undefined };

async function attempt(
  action: "install" | "uninstall",
  box: Sandbox,
  client: Client,
  fixJsonc = false,
): Promise<Attempt> {
  const prepare = action === "install" ? prepareInstall : prepareUninstall;
  try {
    await commitJobs((await prepare(requestFor(client, fixJsonc), box.machine)).previews);
    return { error: undefined };
  } catch (error) {
    if (!(error instanceof HookNotifyError)) throw error;
    return { error };
  }
}

// The CLI's words for a second run: "No change" when there is nothing to do.
async function cliRun(
  action: "install" | "uninstall",
  box: Sandbox,
  client: Client,
  fixJsonc = false,
) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSettingsCommand(
    action,
    { ...SETTINGS_ARGS, client, fixJsonc },
    { machine: box.machine, out: (t) => out.push(t), err: (l) => err.push(l) },
  );
  return { code, out: out.join(""), err };
}

/** What a file and its folder look like, to prove a refusal changed nothing. */
interface Snapshot {
  bytes: Buffer | undefined;
  mode: number | undefined;
  folder: string[];
}

async function snapshot(file: string): Promise<Snapshot> {
  const bytes = await readFile(file).catch(() => undefined);
  const mode = bytes === undefined ? undefined : await modeOf(file);
  const folder = await readdir(dirname(file)).catch(() => []);
  return { bytes, mode, folder: folder.sort() };
}

const SETTINGS_CODES = [
  "SETTINGS_INVALID",
  "SETTINGS_CONFLICT",
  "SETTINGS_UNREADABLE",
  "SETTINGS_WRITE",
];

// A clear refusal: a settings code, one line naming the file, and a next step.
function expectClearRefusal(error: HookNotifyError | undefined, shown: string): void {
  expect(error, "expected a refusal").toBeInstanceOf(HookNotifyError);
  expect(SETTINGS_CODES).toContain(error!.code);
  for (const line of error!.message.split("\n")) {
    expect(line).toContain(shown);
    expect(line).toMatch(/ again\.|--fix-jsonc|chmod|report/);
  }
}

// No temp file, lock or other stray file beside the target; a .bak only where we wrote.
async function expectNoStrays(file: string): Promise<void> {
  const names = await readdir(dirname(file)).catch(() => []);
  expect(names.filter((n) => /\.tmp$|\.lock$/.test(n))).toEqual([]);
}

async function sandboxWith(c: CorpusCase): Promise<{ box: Sandbox; file: string; shown: string }> {
  const box = await makeSandbox();
  const file = join(box.root, FILES[c.client]);
  if (c.content !== undefined) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, c.content);
    if (c.mode !== undefined) await chmod(file, c.mode);
  }
  return { box, file, shown: "~" + file.slice(box.home.length) };
}

// The whole contract for one corpus file: install, install again, uninstall.
async function checkCase(c: CorpusCase): Promise<void> {
  const { box, file, shown } = await sandboxWith(c);
  const before = await snapshot(file);
  const installed = await attempt("install", box, c.client, c.fixJsonc);
  if (c.outcome === "refuse") {
    expectClearRefusal(installed.error, shown);
    expect(await snapshot(file)).toEqual(before);
    const removed = await attempt("uninstall", box, c.client, c.fixJsonc);
    if (removed.error !== undefined) expectClearRefusal(removed.error, shown);
    expect(await snapshot(file)).toEqual(before);
    return;
  }
  expect(installed.error?.message).toBeUndefined();
  await expectNoStrays(file);
  const text = await readFile(file, "utf8");
  const data = clientParse(text);
  const original = originalData(c.content);
  expect(isDeepStrictEqual(foreignOnly(data, c.client), foreignOnly(original, c.client))).toBe(
    true,
  );
  const ours = oursPerEvent(data, c.client);
  expect([...ours.keys()].filter((e) => EVENTS.includes(e)).sort()).toEqual([...EVENTS].sort());
  const launcher = launcherPath(c.client, box.machine);
  for (const event of EVENTS) {
    expect(ours.get(event)).toHaveLength(1);
    expect(ours.get(event)![0]!["command"]).toContain(`"${launcher}" `);
  }
  expect(await readFile(launcher, "utf8")).toContain(`script='${OUR_SCRIPT}'`);
  if (before.mode !== undefined) expect(await modeOf(file)).toBe(before.mode);
  if (text.includes("\r\n")) expect(text.replace(/\r\n/g, "")).not.toContain("\n");

  const again = await cliRun("install", box, c.client, c.fixJsonc);
  expect(again.err).toEqual([]);
  expect(again.out).toContain("No change");
  expect(await readFile(file, "utf8")).toBe(text);

  const removed = await attempt("uninstall", box, c.client, c.fixJsonc);
  expect(removed.error?.message).toBeUndefined();
  await expectNoStrays(file);
  const left = existsSync(file) ? await readFile(file, "utf8") : undefined;
  const after = clientParse(left);
  expect(oursPerEvent(after, c.client).size).toBe(0);
  expect(isDeepStrictEqual(foreignOnly(after, c.client), foreignOnly(original, c.client))).toBe(
    true,
  );
  if (left !== undefined && before.mode !== undefined) expect(await modeOf(file)).toBe(before.mode);
}

describe("installer abuse corpus", () => {
  it("holds at least 50 settings files", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(CORPUS.map((c) => c.name)).size).toBe(CORPUS.length);
  });

  it.each(CORPUS.map((c) => [`${c.category}: ${c.name} (${c.client}) → ${c.outcome}`, c] as const))(
    "%s",
    async (_name, c) => {
      expect.hasAssertions();
      await checkCase(c);
    },
    60_000, // the MB-sized cases on a machine whose cores are busy with other work
  );
});

const FOREIGN_TEXT = JSON.stringify(
  { model: "opus", hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } },
  null,
  2,
);

describe("file-system situations", () => {
  it("a symlinked settings file stays a link; its target is written and restored", async () => {
    const box = await makeSandbox({ "dotfiles/claude.json": FOREIGN_TEXT });
    const link = join(box.home, ".claude/settings.json");
    const target = join(box.root, "dotfiles/claude.json");
    await mkdir(dirname(link), { recursive: true });
    await symlink("../../dotfiles/claude.json", link);
    expect((await attempt("install", box, "claude-code")).error).toBeUndefined();
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe("../../dotfiles/claude.json");
    expect(oursPerEvent(clientParse(await readFile(target, "utf8")), "claude-code").size).toBe(7); // six default events + UserPromptSubmit
    expect(await readFile(`${target}.bak`, "utf8")).toBe(FOREIGN_TEXT);
    await expectNoStrays(link);
    await expectNoStrays(target);
    expect((await cliRun("install", box, "claude-code")).out).toContain("No change");
    expect((await attempt("uninstall", box, "claude-code")).error).toBeUndefined();
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(clientParse(await readFile(target, "utf8"))).toEqual(JSON.parse(FOREIGN_TEXT));
  });

  it("a dangling symlink is refused; the link stays as it was", async () => {
    const box = await makeSandbox();
    const link = join(box.home, ".claude/settings.json");
    await mkdir(dirname(link), { recursive: true });
    await symlink("../../dotfiles/missing.json", link);
    const before = await readdir(dirname(link));
    const { error } = await attempt("install", box, "claude-code");
    expectClearRefusal(error, "~/.claude/settings.json");
    expect(error!.code).toBe("SETTINGS_WRITE");
    expect(await readlink(link)).toBe("../../dotfiles/missing.json");
    expect(await readdir(dirname(link))).toEqual(before);
    expect(existsSync(join(box.root, "dotfiles"))).toBe(false);
  });

  it("a folder where the settings file should be is refused", async () => {
    const box = await makeSandbox({ "home/.claude/settings.json/keep": "x" });
    const { error } = await attempt("install", box, "claude-code");
    expectClearRefusal(error, "~/.claude/settings.json");
    expect(error!.code).toBe("SETTINGS_UNREADABLE");
    expect(await readdir(join(box.home, ".claude/settings.json"))).toEqual(["keep"]);
  });

  it("a read-only file is refused: bytes, mode and folder unchanged, no .bak", async () => {
    const box = await makeSandbox({
      "home/.claude/settings.json": { text: FOREIGN_TEXT, mode: 0o444 },
    });
    const file = join(box.home, ".claude/settings.json");
    const before = await snapshot(file);
    const { error } = await attempt("install", box, "claude-code");
    expectClearRefusal(error, "~/.claude/settings.json");
    expect(error!.code).toBe("SETTINGS_WRITE");
    expect(await snapshot(file)).toEqual(before);
  });

  it("missing parent folders are created (CLAUDE_CONFIG_DIR three levels down)", async () => {
    const box = await makeSandbox();
    box.machine.env = { CLAUDE_CONFIG_DIR: join(box.root, "a/b/c") };
    expect((await attempt("install", box, "claude-code")).error).toBeUndefined();
    const text = await readFile(join(box.root, "a/b/c/settings.json"), "utf8");
    expect(oursPerEvent(clientParse(text), "claude-code").size).toBe(7); // six default events + UserPromptSubmit
  });
});

/** What the built binary did, and the env it ran with. */
interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

// Runs `node bin/hook-notify.js <action> --client X --scope user -y` with HOME in the sandbox,
// optionally as another user (uid/gid), which is how a read-only folder is real even for root.
function runInstallBin(
  action: "install" | "uninstall",
  box: Sandbox,
  client: Client,
  as?: { uid: number; gid: number },
): Promise<BinRun> {
  const env = {
    HOME: box.home,
    XDG_CONFIG_HOME: join(box.home, ".config"),
    XDG_STATE_HOME: join(box.home, ".state"),
    PATH: dirname(process.execPath),
  };
  const args = [BIN, action, "--client", client, "--scope", "user", "-y"];
  const child = spawn(process.execPath, args, { env, cwd: box.project, ...as });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  return new Promise((resolve) => {
    child.on("close", (code) => {
      resolve({ code, stdout, stderr });
    });
  });
}

// One stderr line that names the file and says what to do; exit 1; nothing on stdout.
function expectBinRefusal(result: BinRun, shown: string): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(shown);
  expect(lines[0]).toMatch(/ again\.|--fix-jsonc|chmod/);
}

const BIN_CASES = [
  "CRLF line ends",
  "tab indentation",
  "UTF-8 BOM",
  "line comment in hooks.json",
  "invalid UTF-8",
  "deep nesting (5,000 levels) in an unrelated key",
  "hook-notify at an older path and timeout",
  'duplicate "hooks" key',
  '"hooks" is null',
  "__proto__ and constructor keys",
  "foreign hooks on every event in hooks.json",
  "invalid JSON (garbage after)",
  "non-object items in an event we do not touch",
];

const hasBuild = existsSync(join(dirname(BIN), "..", "dist", "cli.cjs"));

describe.skipIf(!hasBuild)("through the built binary (npm run build first)", () => {
  it("runs at least 10 representative cases", () => {
    expect(BIN_CASES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(BIN_CASES)(
    "%s",
    async (name) => {
      const c = CORPUS.find((one) => one.name === name);
      expect.hasAssertions();
      if (c === undefined) throw new Error(`no corpus case named ${name}`);
      await checkBinCase(c);
    },
    30_000, // four processes each, on a machine whose cores may be busy
  );
});

// The same contract as checkCase, as a person runs it: exit codes and stderr lines.
async function checkBinCase(c: CorpusCase): Promise<void> {
  const { box, file, shown } = await sandboxWith(c);
  const before = await snapshot(file);
  const installed = await runInstallBin("install", box, c.client);
  if (c.outcome === "refuse") {
    expectBinRefusal(installed, shown);
    expect(await snapshot(file)).toEqual(before);
    return;
  }
  expect(installed.stderr).toBe("");
  expect(installed.code).toBe(0);
  const data = clientParse(await readFile(file, "utf8"));
  const original = originalData(c.content);
  expect(isDeepStrictEqual(foreignOnly(data, c.client), foreignOnly(original, c.client))).toBe(
    true,
  );
  const ours = oursPerEvent(data, c.client);
  for (const event of EVENTS) expect(ours.get(event)).toHaveLength(1);
  expect((await runInstallBin("install", box, c.client)).stdout).toContain("No change");
  expect((await runInstallBin("uninstall", box, c.client)).code).toBe(0);
  const left = existsSync(file) ? await readFile(file, "utf8") : undefined;
  expect(
    isDeepStrictEqual(foreignOnly(clientParse(left), c.client), foreignOnly(original, c.client)),
  ).toBe(true);
  await expectNoStrays(file);
}

// Root writes into a 0555 folder anyway: run the binary as nobody, who really cannot.
const NOBODY = { uid: 65534, gid: 65534 };
const isRoot = process.getuid?.() === 0;

// nobody reaches a path when every folder above it lets others through, and runs node when its
// binary lets others execute it (a node kept in root's home, as a version manager does, is closed).
function othersCanRun(path: string): boolean {
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dirname(dir) === dir) break;
  }
  return (statSync(path).mode & 0o001) !== 0;
}
const nobodyRunsNode = isRoot && othersCanRun(process.execPath) && othersCanRun(BIN);

describe("a read-only settings folder", () => {
  // Skipped unless root, and unless nobody can run this node and the bin (say so when it cannot).
  if (isRoot && !nobodyRunsNode)
    console.warn(`abuse-corpus: nobody cannot run ${process.execPath} or ${BIN}; skipped`);
  it.skipIf(!nobodyRunsNode)(
    "is refused with one line naming the file and the fix; nothing changes, no temp file (as nobody)",
    async () => {
      const box = await makeSandbox({ "home/.claude/settings.json": FOREIGN_TEXT });
      const folder = join(box.home, ".claude");
      await chmod(box.root, 0o755);
      for (const path of [box.home, box.project, folder, join(folder, "settings.json")])
        await chown(path, NOBODY.uid, NOBODY.gid);
      await chmod(folder, 0o555);
      const before = await snapshot(join(folder, "settings.json"));
      const result = await runInstallBin("install", box, "claude-code", NOBODY);
      expectBinRefusal(result, "~/.claude/settings.json");
      expect(result.stderr).toMatch(/permission|EACCES/i);
      expect(await snapshot(join(folder, "settings.json"))).toEqual(before);
    },
  );
});
