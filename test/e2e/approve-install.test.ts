// install --approve / uninstall with the built binary in a temp HOME: the PermissionRequest entry
// for Claude Code only (and with --retry the PermissionDenied ask beside its notification), a random reply topic kept in the config, a 0600 key, nothing for Droid.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

function home(config?: unknown): TempHome {
  const h = tempHome();
  mkdirSync(join(h.dir, ".claude"), { recursive: true });
  mkdirSync(join(h.dir, ".factory"), { recursive: true });
  if (config !== undefined) h.writeConfig(config);
  return h;
}

const NTFY = {
  sinks: {
    phone: {
      type: "chat",
      service: "ntfy",
      url: "https://ntfy.example/req-topic",
      token: "tk_x123456",
    },
  },
};

function settings(h: TempHome): {
  hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]>;
} {
  return JSON.parse(readFileSync(join(h.dir, ".claude", "settings.json"), "utf8")) as never;
}

function configOf(h: TempHome): Record<string, unknown> {
  return JSON.parse(
    readFileSync(join(h.dir, "config", "hook-notify", "config.json"), "utf8"),
  ) as never;
}

describe("install --approve", () => {
  it("adds the PermissionRequest entry (approve, its own timeout), a reply topic and a 0600 key", async () => {
    const h = home(NTFY);
    const result = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const entry = settings(h).hooks.PermissionRequest![0]!.hooks[0]!;
    expect(entry.command).toMatch(
      /launchers\/claude-code\/hook-notify\.sh" approve --client claude-code --timeout 150$/,
    );
    expect(entry.timeout).toBe(150);
    // AskUserQuestion goes to the phone too: the same command, on PreToolUse for that tool alone.
    expect(settings(h).hooks.PreToolUse).toEqual([
      { matcher: "AskUserQuestion", hooks: [{ type: "command", ...entry }] },
    ]);
    // An MCP server's form too: the same command on Elicitation (every server).
    expect(settings(h).hooks.Elicitation).toEqual([{ hooks: [{ type: "command", ...entry }] }]);
    expect(Object.keys(settings(h).hooks)).toEqual(
      expect.arrayContaining([
        "Notification",
        "Stop",
        "SubagentStop",
        "SessionEnd",
        "PermissionRequest",
      ]),
    );
    const topic = configOf(h).approveReplyTopic as string;
    expect(topic).toMatch(/^hn-[-_A-Za-z0-9]{32}$/);
    expect(result.stdout).not.toContain(topic);
    const key = join(h.dir, "state", "hook-notify", "approve.key");
    expect(statSync(key).mode & 0o777).toBe(0o600);
    // Again: nothing changes, the topic and the key stay.
    const again = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(again.code).toBe(0);
    expect(configOf(h).approveReplyTopic).toBe(topic);
    expect(settings(h).hooks.PreToolUse).toHaveLength(1);
    expect(settings(h).hooks.Elicitation).toHaveLength(1);
    const keyText = readFileSync(key, "utf8");
    expect(readFileSync(key, "utf8")).toBe(keyText);
    // Uninstall takes the entry out with the others.
    const removed = await runBin(["uninstall", "--client", "claude-code", "-y"], { env: h.env });
    expect(removed.code).toBe(0);
    expect(() => settings(h)).toThrow();
  });

  it("--retry: the Let it retry entry beside the blocked notification; again: one of each, dry run no diff; uninstall: both gone", async () => {
    const h = home(NTFY);
    const argv = ["install", "--client", "claude-code", "--approve", "--retry"];
    expect((await runBin([...argv, "-y"], { env: h.env })).code).toBe(0);
    expect((await runBin([...argv, "-y"], { env: h.env })).code).toBe(0);
    const [notify, ask, ...more] = settings(h).hooks.PermissionDenied!;
    expect(more).toEqual([]);
    expect(notify!.hooks).toHaveLength(1);
    expect(notify!.hooks[0]!.command).toMatch(
      /hook-notify\.sh" --client claude-code --timeout 10$/,
    );
    expect(ask!.hooks).toEqual([
      {
        type: "command",
        command: expect.stringMatching(
          /hook-notify\.sh" approve --client claude-code --timeout 35$/,
        ) as unknown,
        timeout: 35,
      },
    ]);
    const dry = await runBin([...argv, "--dry-run"], { env: h.env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/No change: hook-notify is already installed for Claude Code/);
    expect(dry.stdout).not.toMatch(/^\s*[-+] /m);
    const removed = await runBin(["uninstall", "--client", "claude-code", "-y"], { env: h.env });
    expect(removed.code).toBe(0);
    expect(() => settings(h)).toThrow();
  });

  it("--retry without --approve: exit 2, one line naming the fix, writes nothing", async () => {
    const h = home(NTFY);
    const result = await runBin(["install", "--client", "claude-code", "--retry", "-y"], {
      env: h.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--retry .*: run install --approve --retry\.\n$/);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(() => settings(h)).toThrow();
  });

  it("approveSeconds sets the entry's timeout (30 s more)", async () => {
    const h = home({ ...NTFY, approveSeconds: 300 });
    const result = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(result.code).toBe(0);
    expect(settings(h).hooks.PermissionRequest![0]!.hooks[0]!.timeout).toBe(330);
  });

  it("Droid: says it has no PermissionRequest event and writes nothing", async () => {
    const h = home(NTFY);
    const result = await runBin(["install", "--client", "droid", "--approve", "-y"], {
      env: h.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/droid has no PermissionRequest event/);
    expect(() => readFileSync(join(h.dir, ".factory", "hooks.json"))).toThrow();
    expect(configOf(h).approveReplyTopic).toBeUndefined();
  });

  it("--client all: Claude Code gets the entry, Droid is skipped with the same words", async () => {
    const h = home(NTFY);
    const result = await runBin(["install", "--client", "all", "--approve", "-y"], { env: h.env });
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toMatch(/droid has no PermissionRequest event/);
    expect(settings(h).hooks.PermissionRequest).toBeDefined();
    expect(() => readFileSync(join(h.dir, ".factory", "hooks.json"))).toThrow();
  });

  // Issue 25: a topic without a token takes posts from anyone, so anyone could press Allow.
  it("an ntfy sink without a token: exit 2 (usage), one line naming the fix, writes nothing", async () => {
    const h = home({
      sinks: { phone: { type: "chat", service: "ntfy", url: "https://ntfy.sh/t1" } },
    });
    const config = join(h.dir, "config", "hook-notify", "config.json");
    const before = readFileSync(config, "utf8");
    const result = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /sinks\.phone: approving from the phone needs an ntfy access token/,
    );
    expect(result.stderr).toMatch(/Add it, then run: hook-notify install --approve\n$/);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(() => settings(h)).toThrow();
    expect(readFileSync(config, "utf8")).toBe(before);
    expect(existsSync(join(h.dir, "state", "hook-notify", "approve.key"))).toBe(false);
  });

  // Issue 38: over plain http the token and the signed Allow are readable on the way.
  it.each([
    [
      "an ntfy server",
      { service: "ntfy", url: "http://192.0.2.1/topic", token: "tk_x123456" },
      /sinks\.phone\.url: approvals over plain http to 192\.0\.2\.1/,
    ],
    [
      "a Telegram apiUrl",
      { service: "telegram", botToken: "1:AA", chatId: 4242, apiUrl: "http://192.0.2.1:8081" },
      /sinks\.phone\.apiUrl: approvals over plain http to 192\.0\.2\.1:8081/,
    ],
  ])(
    "%s over plain http, not loopback: exit 2 (usage), one line naming the fix, writes nothing",
    async (_, sink, message) => {
      const h = home({ sinks: { phone: { type: "chat", ...sink } } });
      const config = join(h.dir, "config", "hook-notify", "config.json");
      const before = readFileSync(config, "utf8");
      const result = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
        env: h.env,
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toMatch(/Use https:\/\/ .*then run: hook-notify install --approve\n$/);
      expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
      expect(() => settings(h)).toThrow();
      expect(readFileSync(config, "utf8")).toBe(before);
      expect(existsSync(join(h.dir, "state", "hook-notify", "approve.key"))).toBe(false);
    },
  );

  // Issue 25: the presses are read with the bot token; without one there is no bot to ask.
  it("a Telegram sink without a bot token: exit 2, one line, writes nothing", async () => {
    const h = home({
      sinks: { phone: { type: "chat", service: "telegram", chatId: 424242 } },
    });
    const config = join(h.dir, "config", "hook-notify", "config.json");
    const before = readFileSync(config, "utf8");
    const result = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/sinks\.phone.*botToken/);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(() => settings(h)).toThrow();
    expect(readFileSync(config, "utf8")).toBe(before);
    expect(existsSync(join(h.dir, "state", "hook-notify", "approve.key"))).toBe(false);
  });

  it("a Telegram sink with its bot token: the entry and the key, no reply topic", async () => {
    const h = home({
      sinks: {
        phone: { type: "chat", service: "telegram", url: "tgram://123456:ABC-def/424242" },
      },
    });
    const config = join(h.dir, "config", "hook-notify", "config.json");
    const result = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(result.code).toBe(0);
    expect(readFileSync(config, "utf8")).not.toContain("approveReplyTopic");
    expect(existsSync(join(h.dir, "state", "hook-notify", "approve.key"))).toBe(true);
    expect(JSON.stringify(settings(h))).toMatch(
      /"PermissionRequest".*approve --client claude-code --timeout 150/,
    );
  });

  it("the config that holds the token and the key end up 0600, whatever they were", async () => {
    const h = home(NTFY);
    const config = join(h.dir, "config", "hook-notify", "config.json");
    chmodSync(config, 0o644);
    const key = join(h.dir, "state", "hook-notify", "approve.key");
    mkdirSync(join(h.dir, "state", "hook-notify"), { recursive: true });
    writeFileSync(key, `${"d".repeat(64)}\n`, { mode: 0o644 });
    chmodSync(key, 0o644);
    const first = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(first.code).toBe(0);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(statSync(key).mode & 0o777).toBe(0o600);
    // A config loosened later (the topic already there) is made private again.
    chmodSync(config, 0o664);
    const again = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/made readable by you alone \(mode 600\)/);
    expect(statSync(config).mode & 0o777).toBe(0o600);
  });

  it("without an ntfy sink: exit 2, says what to add, writes nothing", async () => {
    const h = home({ sinks: { desktop: { type: "desktop" } } });
    const result = await runBin(["install", "--client", "claude-code", "--approve", "-y"], {
      env: h.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/"service": "ntfy"/);
    expect(() => settings(h)).toThrow();
  });
});
