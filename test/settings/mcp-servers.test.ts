// install --mcp registers `hook-notify mcp` in each client's own MCP file, in that client's shape,
// leaving every other byte as it was; uninstall takes out only our server.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clients } from "../../src/clients/index.js";
import { makeSandbox, readMaybe, runSettings } from "./tree.js";

const run = runSettings;

const launcher = (home: string, client: string) =>
  join(home, ".local/share/hook-notify/launchers", client, "hook-notify.sh");

// client → its MCP file under HOME, and where our entry sits in it (JSON clients).
const JSON_CASES = [
  ["claude-code", ".claude.json", ["mcpServers"], { type: "stdio" }],
  ["gemini", ".gemini/settings.json", ["mcpServers"], {}],
  ["qwen-code", ".qwen/settings.json", ["mcpServers"], {}],
  ["copilot", ".copilot/mcp-config.json", ["mcpServers"], { type: "local", tools: ["*"] }],
  ["droid", ".factory/mcp.json", ["mcpServers"], { type: "stdio" }],
  ["cursor", ".cursor/mcp.json", ["mcpServers"], {}],
  ["pi", ".pi/agent/mcp.json", ["mcpServers"], {}],
] as const;

describe("install --mcp", () => {
  it.each(JSON_CASES)(
    "%s: %s gets a hook-notify server that runs the launcher with mcp",
    async (client, file, path, extra) => {
      const box = await makeSandbox();
      const result = await run(box, "install", { client, mcp: true });
      expect(result).toMatchObject({ code: 0, err: "" });
      expect(result.out).toContain(`hook-notify's MCP server registered in ~/${file}`);
      let data = JSON.parse((await readMaybe(join(box.home, file)))!) as Record<string, unknown>;
      for (const key of path) data = data[key] as Record<string, unknown>;
      expect(data["hook-notify"]).toEqual({
        ...extra,
        command: launcher(box.home, client),
        args: ["mcp"],
      });
      const again = await run(box, "install", { client, mcp: true });
      expect(again.out).toContain("hook-notify's MCP server is already there");
      await run(box, "uninstall", { client });
      data = JSON.parse((await readMaybe(join(box.home, file)))!) as Record<string, unknown>;
      for (const key of path) data = data[key] as Record<string, unknown>;
      expect(data).toEqual({});
    },
  );

  it("Claude Code: ~/.claude.json keeps its other keys, servers and one-line layout", async () => {
    const before = '{"numStartups":3,"mcpServers":{"db":{"command":"pg-mcp"}},"theme":"dark"}\n';
    const box = await makeSandbox({ "home/.claude.json": before });
    await run(box, "install", { client: "claude-code", mcp: true });
    const text = (await readMaybe(join(box.home, ".claude.json")))!;
    expect(text.trimEnd().includes("\n")).toBe(false);
    expect(JSON.parse(text)).toEqual({
      numStartups: 3,
      mcpServers: {
        db: { command: "pg-mcp" },
        "hook-notify": {
          type: "stdio",
          command: launcher(box.home, "claude-code"),
          args: ["mcp"],
        },
      },
      theme: "dark",
    });
    await run(box, "uninstall", { client: "claude-code" });
    expect(JSON.parse((await readMaybe(join(box.home, ".claude.json")))!)).toEqual(
      JSON.parse(before),
    );
  });

  it("Codex: config.toml gets [mcp_servers.hook-notify]; the rest of the file stays as written", async () => {
    const before = '# mine\nmodel = "o3"\n\n[mcp_servers.db]\ncommand = "pg-mcp"\n';
    const box = await makeSandbox({ "home/.codex/config.toml": before });
    await run(box, "install", { client: "codex", mcp: true });
    const file = join(box.home, ".codex/config.toml");
    expect(await readMaybe(file)).toBe(
      `${before}\n[mcp_servers.hook-notify]\ncommand = ${JSON.stringify(launcher(box.home, "codex"))}\nargs = ["mcp"]\n`,
    );
    await run(box, "uninstall", { client: "codex" });
    expect(await readMaybe(file)).toBe(before);
  });

  it("OpenCode: opencode.json's mcp gets a local server with the whole command as an array", async () => {
    const box = await makeSandbox();
    await run(box, "install", { client: "opencode", mcp: true });
    const data = JSON.parse(
      (await readMaybe(join(box.home, ".config/opencode/opencode.json")))!,
    ) as unknown;
    expect(data).toEqual({
      mcp: {
        "hook-notify": {
          type: "local",
          command: [launcher(box.home, "opencode"), "mcp"],
          enabled: true,
        },
      },
    });
  });

  it("--dry-run says what it would register and writes nothing", async () => {
    const box = await makeSandbox();
    const result = await run(box, "install", { client: "gemini", mcp: true, dryRun: true });
    expect(result.out).toContain(
      "Gemini CLI: hook-notify's MCP server: would register it in ~/.gemini/settings.json",
    );
    expect(await readMaybe(join(box.home, ".gemini/settings.json"))).toBeUndefined();
  });

  it("refuses a project scope with what to do, and a broken file without touching it", async () => {
    const box = await makeSandbox({ "home/.claude.json": "{ not json" });
    const scoped = await run(box, "install", {
      client: "claude-code",
      mcp: true,
      scope: "project",
    });
    expect(scoped.code).toBe(2);
    expect(scoped.err).toMatch(/run install --mcp without --scope/);
    const broken = await run(box, "install", { client: "claude-code", mcp: true });
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/~\/\.claude\.json: not a JSON object.*Fix the file/);
    expect(await readMaybe(join(box.home, ".claude.json"))).toBe("{ not json");
  });

  it("the help names every client whose adapter says where it takes MCP servers", () => {
    expect(clients.filter((adapter) => adapter.mcp).map((adapter) => adapter.id)).toEqual(
      expect.arrayContaining(["claude-code", "codex", "gemini", "copilot", "droid", "opencode"]),
    );
  });
});
