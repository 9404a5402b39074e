import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { selfCommand } from "../../src/settings/self-command.js";
import { makeTree } from "./tree.js";

// The hints after install and init name a command that runs this very hook-notify.
describe.runIf(process.platform !== "win32")("selfCommand", () => {
  async function setup() {
    const root = await makeTree();
    const script = join(root, "checkout", "bin", "hook-notify.js");
    await mkdir(join(root, "checkout", "bin"), { recursive: true });
    await writeFile(script, "");
    await chmod(script, 0o755);
    await mkdir(join(root, "global"));
    await mkdir(join(root, "other"));
    await symlink(script, join(root, "global", "hook-notify"));
    await writeFile(join(root, "other", "hook-notify"), "#!/bin/sh\n", { mode: 0o755 });
    return { root, script };
  }
  const base = { platform: "linux" as const };

  it("is hook-notify when that name on PATH is this script (npm's bin link)", async () => {
    const { root, script } = await setup();
    const env = { PATH: join(root, "global") };
    expect(selfCommand({ ...base, env, scriptPath: script, cwd: root })).toBe("hook-notify");
  });

  it("is node and the script when PATH has none, or another hook-notify", async () => {
    const { root, script } = await setup();
    for (const PATH of ["/nonexistent", join(root, "other")]) {
      expect(selfCommand({ ...base, env: { PATH }, scriptPath: script, cwd: "/" })).toBe(
        `node ${script}`,
      );
    }
    const inside = selfCommand({
      ...base,
      env: {},
      scriptPath: script,
      cwd: join(root, "checkout"),
    });
    expect(inside).toBe("node bin/hook-notify.js");
  });

  it("quotes a path the shell would split", () => {
    const scriptPath = "/opt/it's here/bin/hook-notify.js";
    expect(selfCommand({ ...base, env: {}, scriptPath, cwd: "/" })).toBe(
      `node '/opt/it'\\''s here/bin/hook-notify.js'`,
    );
  });
});
