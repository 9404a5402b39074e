// doctor's line per client: the version (from the package, or the program's --version under a
// bound), whether hook-notify's entries are still in its hooks files, and its last hook run.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCode } from "../../src/clients/claude-code.js";
import { checkClients, lastRunPerClient } from "../../src/doctor/client-checks.js";
import { compareVersions, findClientVersion, findOnPath } from "../../src/doctor/client-version.js";
import { tempDir } from "../helpers/sink-harness.js";

function write(file: string, text: string, mode = 0o644): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text);
  chmodSync(file, mode);
}

// A program on a PATH of its own that runs `body` as sh.
function program(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  write(file, `#!/bin/sh\n${body}\n`, 0o755);
  return file;
}

const POSIX = process.platform !== "win32";

describe.runIf(POSIX)("findClientVersion", () => {
  it("reads the version from the package the program links into, without running it", () => {
    const root = tempDir("client-version-package");
    const pkg = join(root, "lib", "node_modules", "@acme", "agent");
    write(join(pkg, "package.json"), JSON.stringify({ name: "@acme/agent", version: "4.5.6" }));
    // Running it would hang: the answer must come from package.json.
    const script = program(
      pkg,
      "cli.js",
      `exec "${process.execPath}" -e "setTimeout(() => {}, 60000)"`,
    );
    mkdirSync(join(root, "bin"));
    symlinkSync(script, join(root, "bin", "agent"));
    const found = findClientVersion(
      { program: { command: "agent", package: "@acme/agent" } },
      { PATH: join(root, "bin") },
      "linux",
    );
    expect(found).toEqual({ version: "4.5.6", program: join(root, "bin", "agent") });
  });

  it("runs --version when no package says it, and takes the first version it prints", () => {
    const bin = tempDir("client-version-run");
    program(bin, "agent", 'echo "Acme Agent 1.0.102."; echo "Run agent update"');
    const found = findClientVersion({ program: { command: "agent" } }, { PATH: bin }, "linux");
    expect(found).toMatchObject({ version: "1.0.102" });
  });

  it("gives up on a program that never answers, and on one that is not there", () => {
    const bin = tempDir("client-version-hang");
    program(bin, "agent", `exec "${process.execPath}" -e "setTimeout(() => {}, 60000)"`);
    const hung = findClientVersion({ program: { command: "agent" } }, { PATH: bin }, "linux");
    expect(hung).toEqual({ unknown: '"agent --version" did not answer' });
    const none = findClientVersion({ program: { command: "nope" } }, { PATH: bin }, "linux");
    expect(none).toEqual({ unknown: "nope is not on PATH" });
  });

  it("orders versions by their numbers", () => {
    expect(compareVersions("2.1.332", "2.1.197")).toBe(1);
    expect(compareVersions("0.61.0", "0.61.0")).toBe(0);
    expect(compareVersions("0.9.10", "0.61.0")).toBe(-1);
  });
});

// A run record's line as the journal writes it.
const run = (fields: object) =>
  JSON.stringify({ outcomes: [], skipped: [], issues: [], ...fields });

describe("lastRunPerClient", () => {
  it("keeps each client's newest hook run, not test samples nor torn lines", () => {
    const lines = [
      '{"time":"2026-01-01T10:00:00.000Z"}', // the cut first line
      run({ time: "2026-01-01T10:00:00.000Z", client: "claude-code" }),
      run({ time: "2026-01-01T12:00:00.000Z", client: "claude-code", via: "worker" }),
      run({ time: "2026-01-01T13:00:00.000Z", client: "claude-code", via: "test" }),
      run({ time: "2026-01-01T11:00:00.000Z", client: "gemini" }),
      '{"time": "2026-01-01T14:00',
    ];
    expect(lastRunPerClient(lines)).toEqual(
      new Map([
        ["claude-code", Date.parse("2026-01-01T12:00:00.000Z")],
        ["gemini", Date.parse("2026-01-01T11:00:00.000Z")],
      ]),
    );
  });
});

describe.runIf(POSIX)("checkClients", () => {
  const now = Date.parse("2026-11-25T12:00:00.000Z");

  function machine() {
    const home = tempDir("client-checks");
    const bin = join(home, "bin");
    mkdirSync(bin);
    const env = { PATH: bin, XDG_STATE_HOME: join(home, "state") };
    return {
      home,
      bin,
      env,
      deps: {
        env,
        homedir: home,
        cwd: join(home, "p"),
        now: () => now,
        platform: "linux" as const,
      },
    };
  }

  function ours(event: string): string {
    const handler = { type: "command", command: "hook-notify --client claude-code", timeout: 10 };
    return JSON.stringify({ hooks: { [event]: [{ hooks: [handler] }] } });
  }

  it("says the version, the file with hook-notify's entries and the last run of an installed client", async () => {
    const { home, bin, env, deps } = machine();
    program(bin, "claude", 'echo "9.1.332 (Claude Code)"');
    write(join(home, ".claude", "settings.json"), ours("Stop"));
    const line = run({ time: new Date(now - 3 * 3600_000).toISOString(), client: "claude-code" });
    write(join(env.XDG_STATE_HOME, "hook-notify", "log.ndjson"), `${line}\n`);
    const results = await checkClients(deps);
    expect(results).toEqual([
      {
        check: "Claude Code client",
        status: "ok",
        detail: `9.1.332 (hook-notify verified ${claudeCode.verified}); hook-notify in ~/.claude/settings.json; last hook 3 h ago`,
        fix: "",
      },
    ]);
  });

  it("warns for a client set up without hook-notify, and for one older than the verified version", async () => {
    const { home, bin, deps } = machine();
    mkdirSync(join(home, ".gemini"));
    program(bin, "claude", 'echo "1.0.0 (Claude Code)"');
    write(join(home, ".claude", "settings.json"), ours("Notification"));
    const results = await checkClients(deps);
    expect(results.map((r) => [r.check, r.status, r.fix])).toEqual([
      [
        "Claude Code client",
        "warn",
        `Update Claude Code to ${claudeCode.verified} or later: an older one may not read these hooks.`,
      ],
      ["Gemini CLI client", "warn", "hook-notify install --client gemini"],
    ]);
    expect(results[1]?.detail).toBe(
      "version unknown: gemini is not on PATH; hook-notify is in none of its hooks files; no hook ran in the last day",
    );
  });

  it("leaves out a client that is nowhere on this machine", async () => {
    const { deps } = machine();
    expect(await checkClients(deps)).toEqual([]);
  });
});

// Issue 38 (redteam F2): a relative PATH entry names whatever folder doctor runs in (a cloned
// repository's node_modules/.bin): its `claude` is neither found nor run.
describe("findOnPath", () => {
  it("looks in absolute PATH entries only", () => {
    const dir = tempDir("doctor-relative-path");
    const bin = join(dir, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "claude"), "#!/bin/sh\necho 9.9.9\n", { mode: 0o755 });
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(findOnPath("claude", { PATH: "node_modules/.bin" }, "linux")).toBeUndefined();
      expect(
        findOnPath("claude", { PATH: `.${delimiter}node_modules/.bin` }, "linux"),
      ).toBeUndefined();
      expect(findOnPath("claude", { PATH: bin }, "linux")).toBe(join(bin, "claude"));
    } finally {
      process.chdir(cwd);
    }
  });
});
