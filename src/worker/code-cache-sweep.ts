// Temp files of the V8 code cache that hooks killed while writing it left
// (bin/hook-notify.cjs writeCache: `<bundle>-<build>-<node>-<arch>.v8.<pid>.<ms>.tmp`). A run
// that writes a cache removes those over a minute old, but a run writes one only when there is
// none: after a storm of killed first hooks the younger ones stayed. The worker sweeps them with
// its daily pruning.
import { lstat, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";

const LEFT = /\.v8\.\d+\.(\d+)\.tmp$/;
/** Younger than this, a temp file may be a live run's, writing now. */
const AGE_MS = 60_000;

interface CacheDeps {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  homedir: string;
}

/** The folder bin/hook-notify.cjs keeps its code caches in (its cacheDir, same rule). */
export function codeCacheDir({ env, platform, homedir }: CacheDeps): string {
  const home = env.HOME || env.USERPROFILE || homedir;
  if (platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "hook-notify");
  if (platform === "darwin") return join(home, "Library", "Caches", "hook-notify");
  return join(env.XDG_CACHE_HOME || join(home, ".cache"), "hook-notify");
}

/** Removes the temp files over a minute old from the cache folder, if it is ours; how many. */
export async function sweepCodeCacheTemp(deps: CacheDeps, now: number): Promise<number> {
  const dir = codeCacheDir(deps);
  const folder = await lstat(dir).catch(() => undefined);
  const uid = process.getuid?.();
  if (folder?.isDirectory() !== true || (uid !== undefined && folder.uid !== uid)) return 0;
  let removed = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const left = LEFT.exec(name);
    if (!left || now - Number(left[1]) <= AGE_MS) continue;
    if (
      await unlink(join(dir, name)).then(
        () => true,
        () => false,
      )
    )
      removed++;
  }
  return removed;
}
