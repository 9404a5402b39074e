// The worker's sweep of the code cache's folder (src/worker/code-cache-sweep.ts): the temp files hooks
// killed while writing a cache left go once they are a minute old, whatever else is there stays,
// and the folder is the one bin/hook-notify.cjs writes to.
import { createRequire } from "node:module";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { codeCacheDir, sweepCodeCacheTemp } from "../../src/worker/code-cache-sweep.js";

const loader = createRequire(import.meta.url)("../../bin/hook-notify.cjs") as {
  cacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, home: string): string;
};

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-sweep-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

describe("the code cache's temp files", () => {
  it("are looked for where bin/hook-notify.cjs writes its caches", () => {
    const cases: [NodeJS.ProcessEnv, NodeJS.Platform][] = [
      [{ HOME: "/h" }, "linux"],
      [{ HOME: "/h", XDG_CACHE_HOME: "/c" }, "linux"],
      [{ HOME: "/h" }, "darwin"],
      [{ USERPROFILE: "C:\\u", LOCALAPPDATA: "C:\\l" }, "win32"],
    ];
    for (const [env, platform] of cases)
      expect(codeCacheDir({ env, platform, homedir: "/elsewhere" })).toBe(
        loader.cacheDir(env, platform, String(env.HOME ?? env.USERPROFILE)),
      );
  });

  it("left by killed hooks go once a minute old; caches and a live run's temp file stay", async () => {
    const dir = home();
    const cache = join(dir, ".cache", "hook-notify");
    mkdirSync(cache, { recursive: true, mode: 0o700 });
    const now = Date.now();
    const name = `cli.cjs-0123456789abcdef-${process.version}-${process.arch}.v8`;
    const old = [1, 2, 3].map((pid) => `${name}.${String(pid)}.${String(now - 120_000)}.tmp`);
    const live = `${name}.4.${String(now - 1_000)}.tmp`;
    for (const file of [name, ...old, live, "notes.tmp"]) writeFileSync(join(cache, file), "");
    const deps = { env: { HOME: dir }, platform: process.platform, homedir: dir };
    expect(await sweepCodeCacheTemp(deps, now)).toBe(3);
    expect(readdirSync(cache).sort()).toEqual([name, live, "notes.tmp"].sort());
    expect(await sweepCodeCacheTemp({ ...deps, env: { HOME: join(dir, "none") } }, now)).toBe(0);
  });
});
