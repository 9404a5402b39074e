import type { FileHandle } from "node:fs/promises";
import { chown, mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";

/** Who owns a file we write, and its permission bits. */
export interface Ownership {
  uid: number;
  gid: number;
  mode: number;
}

// `sudo hook-notify install` with HOME kept (the macOS default) runs as root in the user's folder:
// only root can give files away, and only then must it, or the user can no longer edit them.
function isRoot(): boolean {
  return process.geteuid?.() === 0;
}

// An existing file keeps its owner and mode; a new one gets its folder's owner and `mode`.
export async function ownershipFor(
  existing: { uid: number; gid: number; mode: number } | undefined,
  dir: string,
  mode: number,
): Promise<Ownership> {
  if (existing !== undefined) {
    return { uid: existing.uid, gid: existing.gid, mode: existing.mode & 0o777 };
  }
  const folder = await stat(dir);
  return { uid: folder.uid, gid: folder.gid, mode: mode & 0o777 };
}

// Applies the mode, and the owner when running as root (others cannot, and need not).
export async function applyOwnership(handle: FileHandle, owner: Ownership): Promise<void> {
  await handle.chmod(owner.mode);
  if (isRoot()) await handle.chown(owner.uid, owner.gid);
}

// mkdir -p, where each created folder takes the owner of the nearest folder that already existed.
export async function makeFolder(dir: string): Promise<void> {
  let existing = dir;
  while (!(await isFolder(existing)) && dirname(existing) !== existing)
    existing = dirname(existing);
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined || !isRoot()) return;
  const parent = await stat(existing);
  for (let path = dir; path.length >= first.length; path = dirname(path)) {
    await chown(path, parent.uid, parent.gid);
    if (path === first) break;
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
