// The worker's parse memos (parse-memo.ts, PARSE-MEMO.md) in $XDG_STATE_HOME/hook-notify/
// config-memo.json: read once per process, written (0600, a temp file renamed over it) when a
// validation added one, holding only the memos that validation used: the file follows the config
// and never grows with its history. A file that cannot be read or is of another build is no
// memo at all: zod reads the config, as without one.
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { buildId } from "../build-id.js";
import { joinPath } from "../path-join.js";
import { own } from "../own.js";
import { readBoundedSync } from "../read-bounded.js";
import { stateDir } from "../state-dir.js";
import type { Deps } from "../deps.js";
import { isParseMemo, memoKey, type MemoBook, type ParseMemo } from "./parse-memo.js";

export const MEMO_FILE = "config-memo.json";
const MAX_BYTES = 1 << 20;

interface MemoFile {
  version: 1;
  build: string;
  salt: string;
  memos: Record<string, ParseMemo>;
}

/** One validation's memos: `save()` writes the file when the validation added any. */
export interface MemoSession extends MemoBook {
  save(): void;
}

const loaded = new Map<string, MemoFile>();

export function openMemoSession(deps: Pick<Deps, "env" | "homedir" | "platform">): MemoSession {
  const path = joinPath(stateDir(deps), MEMO_FILE);
  let file = loaded.get(path);
  if (!file) loaded.set(path, (file = readMemoFile(path)));
  const memos = file.memos;
  const used = new Map<string, ParseMemo>();
  let added = false;
  const { salt, build } = file;
  return {
    keyOf: (site, input) => memoKey(salt, build, site, input),
    get(key) {
      const memo = own(memos, key);
      if (memo) used.set(key, memo);
      return memo;
    },
    put(key, memo) {
      memos[key] = memo;
      used.set(key, memo);
      added = true;
    },
    save() {
      if (!added) return;
      file.memos = Object.fromEntries(used);
      writeMemoFile(path, file);
    },
  };
}

function readMemoFile(path: string): MemoFile {
  try {
    const data = JSON.parse(readBoundedSync(path, { maxBytes: MAX_BYTES, noFollow: true })) as {
      version?: unknown;
      build?: unknown;
      salt?: unknown;
      memos?: unknown;
    } | null;
    const memos = data?.memos;
    if (
      data?.version === 1 &&
      data.build === buildId() &&
      typeof data.salt === "string" &&
      data.salt.length >= 16 &&
      typeof memos === "object" &&
      memos !== null &&
      Object.values(memos).every(isParseMemo)
    )
      return {
        version: 1,
        build: buildId(),
        salt: data.salt,
        memos: { ...(memos as Record<string, ParseMemo>) },
      };
  } catch {
    // none yet, or not one of ours: a new one
  }
  // Against a table made in advance, not a secret: Math.random (seeded by V8 from the system's
  // randomness), as node:crypto would load before a cold worker's first banner.
  const salt = [0, 1, 2, 3]
    .map(() =>
      Math.floor(Math.random() * 0x10000)
        .toString(16)
        .padStart(4, "0"),
    )
    .join("");
  return { version: 1, build: buildId(), salt, memos: {} };
}

// Never half a file: a temp file beside it, renamed over it. A write that fails leaves the old one
// (or none): the next validation uses zod and tries again.
function writeMemoFile(path: string, file: MemoFile): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(file), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    rmSync(temp, { force: true });
  }
}
