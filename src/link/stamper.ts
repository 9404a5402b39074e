// The stamp of a worker's FIFO (link/stamp.ts says what it vouches for), kept current by the
// worker's offer (offer.ts): written again when the config changed, a hook asked for another
// config, or a run merged a new project file.
import { rmSync } from "node:fs";
import { buildId } from "../build-id.js";
import { loadConfig } from "../config/load-config.js";
import { userConfigPath } from "../config/paths.js";
import { MAX_CONFIG_BYTES } from "../core/defaults.js";
import type { Deps } from "../deps.js";
import type { OutboxPaths } from "../outbox/paths.js";
import { readBoundedSync } from "../read-bounded.js";
import type { Offer } from "./offer.js";
import {
  envPrint,
  fileState,
  maskOf,
  randomBases,
  readStamp,
  variablesIn,
  writeStamp,
  type FastStamp,
} from "./stamp.js";

/** What the stamp vouches for beyond the config file: its salt and mask bases, the project
 * files runs merged and their secrets. */
interface StampKeys {
  salt: string;
  bases: ReturnType<typeof randomBases>;
  projectFiles: Set<string>;
  projectPieces: Set<string>;
}

// The stamp of this worker's FIFO, kept current: written again when the config it vouches for
// changed, a hook asked for another config, or a run merged a new project file.
export function createStamper(
  deps: Deps,
  paths: OutboxPaths,
  fifo: string,
): Pick<Offer, "refresh" | "learn"> & {
  configPath: () => string;
  ask: (configPath: string) => void;
  write: () => void;
} {
  // The config hooks load: the worker's own default until a hook asks for another (its --config).
  let override: string | undefined;
  const configPath = () => userConfigPath(deps, override);
  const keys: StampKeys = {
    salt: process.getBuiltinModule("node:crypto").randomBytes(8).toString("hex"),
    bases: randomBases(Math.random),
    projectFiles: new Set(),
    projectPieces: new Set(),
  };
  const write = (): void => {
    const stamp = stampNow(deps, fifo, configPath(), override, keys);
    try {
      if (stamp) {
        writeStamp(paths.stamp, stamp);
        return;
      }
    } catch {
      // not written: no stamp, rather than one that vouches for what it does not
    }
    try {
      rmSync(paths.stamp, { force: true });
    } catch {
      // not removable: the next write replaces it
    }
  };
  return {
    configPath,
    ask(wanted) {
      override = wanted === userConfigPath(deps) ? undefined : wanted;
    },
    write,
    refresh() {
      const stamp = readStamp(paths.stamp);
      const state = fileState(configPath());
      const current =
        stamp?.pid === process.pid &&
        stamp.config.path === configPath() &&
        state !== undefined &&
        JSON.stringify(state) === JSON.stringify(stamp.config.state);
      if (!current) write();
    },
    learn(config) {
      const project = config?.projectPath;
      if (project === undefined || keys.projectFiles.has(project)) return;
      keys.projectFiles.add(project);
      for (const piece of config?.secrets ?? []) keys.projectPieces.add(piece);
      write();
    },
  };
}

// The stamp for the config at `path` as it is now; undefined when it cannot vouch for it.
function stampNow(
  deps: Deps,
  fifo: string,
  path: string,
  override: string | undefined,
  keys: StampKeys,
): FastStamp | undefined {
  try {
    const before = fileState(path);
    const loaded = loadConfig(deps, { configPath: override });
    const state = fileState(path);
    // Changed while it was read (an editor still writing): the stamp would vouch for a text
    // the worker did not load. The next change (or knock) writes it.
    if (loaded.error || state === undefined || JSON.stringify(before) !== JSON.stringify(state))
      return undefined;
    const names = new Set(variablesIn(textOf(path)));
    for (const file of keys.projectFiles)
      for (const name of variablesIn(textOf(file))) names.add(name);
    const sorted = [...names].sort();
    return {
      version: 1,
      build: buildId(),
      pid: process.pid,
      fifo,
      config: { path, state },
      env: { names: sorted, salt: keys.salt, print: envPrint(sorted, keys.salt, deps.env) },
      mask: maskOf([...loaded.secrets, ...keys.projectPieces], keys.bases),
    };
  } catch {
    return undefined;
  }
}

// A project's file may be a FIFO or a link to /dev/zero: read as load-config reads it.
function textOf(file: string): string {
  try {
    return readBoundedSync(file, { maxBytes: MAX_CONFIG_BYTES });
  } catch {
    return "";
  }
}
