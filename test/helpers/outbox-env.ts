import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { Deps } from "../../src/deps.js";
import { outboxPaths, type OutboxPaths } from "../../src/outbox/paths.js";
import { testDeps } from "./sample-notification.js";

export interface OutboxEnv {
  home: string;
  configPath: string;
  env: Record<string, string>;
  deps: Deps;
  paths: OutboxPaths;
  /** Parsed JSON files in one outbox folder. */
  files(folder: "pending" | "failed" | "corrupt"): Promise<Record<string, unknown>[]>;
  /** Every byte the outbox and the log hold, for secret checks. */
  everything(): Promise<string>;
}

// A temp HOME with XDG dirs and a config file whose `sinks` you pass; removed after the test.
export async function outboxEnv(
  sinks: Record<string, unknown>,
  now?: () => number,
): Promise<OutboxEnv> {
  const home = await mkdtemp(join(tmpdir(), "hn-outbox-"));
  onTestFinished(() => rm(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }));
  const configPath = join(home, "config.json");
  await writeFile(configPath, JSON.stringify({ sinks }));
  const env = {
    HOME: home,
    XDG_STATE_HOME: join(home, "state"),
    XDG_CONFIG_HOME: join(home, "config"),
    HOOK_NOTIFY_CONFIG: configPath,
    NO_PROXY: "127.0.0.1,localhost",
    HOOK_NOTIFY_WORKER_IDLE_SECONDS: "0",
  };
  const deps = { ...testDeps(env, now), homedir: home, cwd: home };
  const paths = outboxPaths(deps);
  const files = async (folder: "pending" | "failed" | "corrupt") => {
    const dir = paths[folder];
    const names = await readdir(dir).catch(() => [] as string[]);
    return Promise.all(
      names.map(
        async (n) => JSON.parse(await readFile(join(dir, n), "utf8")) as Record<string, unknown>,
      ),
    );
  };
  const everything = async () => {
    const root = join(home, "state");
    const names = await readdir(root, { recursive: true }).catch(() => [] as string[]);
    const texts = await Promise.all(
      names.map((n) => readFile(join(root, n), "utf8").catch(() => "")),
    );
    return texts.join("\n");
  };
  return { home, configPath, env, deps, paths, files, everything };
}
