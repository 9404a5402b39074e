import { spawnSync } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { findPackageRoot } from "../../src/settings/load-template.js";
import { makeTree } from "../settings/tree.js";

const root = findPackageRoot();
const INSTALL_SH = join(root, "install", "install.sh");
const INSTALL_PS1 = join(root, "install", "install.ps1");

// Fake npm and hook-notify that log their argv; npm fails when FAKE_NPM_EXIT says so.
async function fakeBin(withHookNotify = true): Promise<{ bin: string; log: string }> {
  const dir = await makeTree();
  const bin = join(dir, "bin");
  const log = join(dir, "log");
  const scripts: Record<string, string> = {
    npm: `#!/bin/sh\necho "npm $*" >> "${log}"\n[ "$1" = prefix ] && echo "${dir}"\nexit "\${FAKE_NPM_EXIT:-0}"\n`,
  };
  if (withHookNotify)
    scripts["hook-notify"] = `#!/bin/sh\necho "hook-notify $*" >> "${log}"\nexit 0\n`;
  await makeScripts(bin, scripts);
  return { bin, log };
}

async function makeScripts(bin: string, scripts: Record<string, string>): Promise<void> {
  await mkdir(bin, { recursive: true });
  for (const [name, text] of Object.entries(scripts)) {
    await writeFile(join(bin, name), text);
    await chmod(join(bin, name), 0o755);
  }
}

function runInstaller(
  bin: string,
  args: string[],
  env: Record<string, string> = {},
  withNode = true,
) {
  // Without node, PATH holds only the fakes: install.sh checks for node before it runs anything.
  const path = withNode ? [bin, dirname(process.execPath), "/usr/bin", "/bin"].join(":") : bin;
  return spawnSync("/bin/sh", [INSTALL_SH, ...args], {
    env: { PATH: path, ...env },
    encoding: "utf8",
  });
}

describe("install/install.sh", () => {
  it("installs the package globally with npm, then runs hook-notify install with the same flags", async () => {
    const { bin, log } = await fakeBin();
    const ran = runInstaller(bin, ["--client", "droid", "--scope", "user"]);
    expect(ran.status).toBe(0);
    expect(await readFile(log, "utf8")).toBe(
      "npm install --global hook-notify\nhook-notify install --client droid --scope user\n",
    );
  });

  it("installs HOOK_NOTIFY_PACKAGE instead when set (a version or a tarball)", async () => {
    const { bin, log } = await fakeBin();
    runInstaller(bin, [], { HOOK_NOTIFY_PACKAGE: "./hook-notify-0.1.0.tgz" });
    expect(await readFile(log, "utf8")).toContain("npm install --global ./hook-notify-0.1.0.tgz\n");
  });

  it("stops with exit 1 and a hint when npm fails, without running hook-notify", async () => {
    const { bin, log } = await fakeBin();
    const ran = runInstaller(bin, [], { FAKE_NPM_EXIT: "1" });
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain("npm could not install");
    expect(await readFile(log, "utf8")).not.toContain("hook-notify install");
  });

  it("says so when the installed bin is not on PATH", async () => {
    const { bin } = await fakeBin(false);
    const ran = runInstaller(bin, []);
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain("not on PATH");
  });

  it("asks for Node.js when there is none on PATH", async () => {
    const { bin } = await fakeBin();
    const ran = runInstaller(bin, [], {}, false);
    expect(ran.status).toBe(1);
    expect(ran.stderr).toContain("needs Node.js 20");
  });
});

describe("install/install.ps1", () => {
  it("does the same two steps in PowerShell", async () => {
    const text = await readFile(INSTALL_PS1, "utf8");
    expect(text).toContain("npm install --global $package");
    expect(text).toContain("& $bin.Source install @args");
  });

  it.each([INSTALL_SH, INSTALL_PS1])("names no registry host (%s)", async (file) => {
    expect(await readFile(file, "utf8")).not.toMatch(/registry|https?:\/\//i);
  });
});
