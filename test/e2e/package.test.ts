import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/run-bin.js";

interface PackFile {
  path: string;
  size: number;
}
interface PackReport {
  size: number;
  unpackedSize: number;
  files: PackFile[];
}

interface Manifest {
  license: string;
  description: string;
  dependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies: Record<string, string>;
}

// 700 KB until the MCP server (dist/mcp.cjs: the official SDK, its zod and JSON Schema validator,
// ~720 KB before packing) joined the tarball. 783 KB with init's prompts (dist/prompts.cjs); the
// reply listener is dist/worker.cjs started with "reply" (a bundle of its own, ~220 KB before
// packing, made the tarball 852 KB). The hook's own bundle is unchanged (dist/hook.cjs). 805 KB
// with the commands' code cache header (bin/commands-cache.cjs; the tarball was 799.7 KB). 835 KB
// with the D-Bus client (src/dbus/) that replaced notify-send: it is in the worker's, the
// commands' and the CLI's bundles (the tarball 826.9 KB); libnotify-bin is no longer needed.
// 840 KB with the worker's parse memos (src/config/parse-memo*.ts, in the same three bundles: a
// cold worker's banner without building zod's schemas; the tarball 836.0 KB).
const MAX_PACKED = 840_000;

// What `npm pack` would put in the tarball, from the dist/ already built (prepack not run again).
async function packReport(): Promise<PackReport> {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const { stdout } = await promisify(execFile)(
    npm,
    ["pack", "--dry-run", "--json", "--ignore-scripts"],
    { cwd: ROOT, maxBuffer: 1 << 24 },
  );
  const [report] = JSON.parse(stdout) as PackReport[];
  if (!report) throw new Error("npm pack printed no report");
  return report;
}

const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;

describe("the npm tarball", () => {
  it("is complete and lean: a LICENSE, a changelog, the bundles, no source map, under 840 KB", async () => {
    const report = await packReport();
    const paths = report.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "package.json",
        "bin/hook-notify.cjs",
        "bin/hook-notify.js",
        "dist/hook.cjs",
        "dist/cli.cjs",
        "dist/commands.cjs",
        "dist/worker.cjs",
        "dist/worker-main.cjs",
        "dist/mcp.cjs",
        "dist/prompts.cjs",
        "schema/config.schema.json",
        "hooks-templates/launcher.sh",
        ".claude-plugin/plugin.json",
        ".claude-plugin/marketplace.json",
        "hooks/hooks.json",
      ]),
    );
    expect(paths.filter((path) => path.endsWith(".map"))).toEqual([]);
    expect(report.size).toBeLessThanOrEqual(MAX_PACKED);
    expect(readFileSync(join(ROOT, "LICENSE"), "utf8")).toMatch(/^MIT License\n/);
    expect(manifest.license).toBe("MIT");
  }, 60_000);

  it("holds no path of the machine that built it", async () => {
    const report = await packReport();
    const places = [ROOT, homedir()].filter((place) => place.length > 1);
    for (const { path } of report.files) {
      const text = readFileSync(join(ROOT, path), "latin1");
      // A path, not a word that starts like one (the MCP SDK's "notifications/roots/…" under
      // a HOME of /root).
      for (const place of places) {
        const has = new RegExp(`${place.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w.-])`);
        expect({ path, has: has.test(text) }).toEqual({ path, has: false });
      }
    }
  }, 60_000);

  it("depends at run time on exactly the packages the bundles still require (zod and jsonc-parser are bundled)", () => {
    const runtime = { ...manifest.dependencies, ...manifest.optionalDependencies };
    const required = new Set<string>();
    for (const name of [
      "hook.cjs",
      "cli.cjs",
      "commands.cjs",
      "worker.cjs",
      "worker-main.cjs",
      "mcp.cjs",
      "prompts.cjs",
    ]) {
      const text = readFileSync(join(ROOT, "dist", name), "utf8");
      // require.resolve too: the commands bundle finds yargs' locales in the installed yargs.
      for (const match of text.matchAll(/(?:require(?:\.resolve)?|import)\("([^"./][^"]*)"\)/g)) {
        const id = match[1] ?? "";
        if (id.startsWith("node:") || builtinModules.includes(id)) continue;
        // ajv (bundled in dist/mcp.cjs with the MCP SDK) keeps these in the text of the code it
        // generates for its standalone mode, never required at run time.
        if (/^ajv(-formats)?\/dist\//.test(id)) continue;
        required.add(id.startsWith("@") ? id.split("/").slice(0, 2).join("/") : id.split("/")[0]!);
      }
    }
    expect([...required].sort()).toEqual(Object.keys(runtime).sort());
    expect(manifest.devDependencies).toHaveProperty("zod");
    expect(runtime).not.toHaveProperty("zod");
  });

  it("names all six clients in its description", () => {
    for (const client of ["Claude Code", "Droid", "Codex", "Gemini CLI", "Copilot CLI", "OpenCode"])
      expect(manifest.description).toContain(client);
  });
});
