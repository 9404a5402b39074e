// path.join, without its normalizing walk when there is nothing to normalize. The hook's fast path
// joins the state and config folders on every run; node's join walks the joined text character
// by character in V8's interpreter (~0.1 M instructions a call, and compiling it ~0.2 M on the
// first). Joined by hand, the text is what join() returns whenever no part is empty and the
// result has no `//` and no `.` or `..` segment; otherwise, and on Windows (other separators,
// drive letters), join() itself answers. The same answer either way: a property test holds it to
// join() (test/path-join.test.ts).
import { isAbsolute, join, resolve } from "node:path";

export function joinPath(...parts: string[]): string {
  if (process.platform === "win32") return join(...parts);
  let joined = "";
  for (const part of parts) {
    if (part === "") return join(...parts);
    joined = joined === "" ? part : `${joined}/${part}`;
  }
  return plain(joined) ? joined : join(...parts);
}

// True when normalizing would leave the text as it is.
function plain(text: string): boolean {
  return (
    text !== "" &&
    !text.includes("//") &&
    !text.includes("/./") &&
    !text.includes("/../") &&
    !text.endsWith("/.") &&
    !text.endsWith("/..") &&
    !text.startsWith("./") &&
    !text.startsWith("../") &&
    text !== "." &&
    text !== ".."
  );
}

/** A path that leaves this process (for the worker, or an outbox entry a worker reads later),
 * absolute against the folder `cwd` it was given in; undefined and "" stay as they are. */
export function absoluteFrom<T extends string | undefined>(cwd: string, path: T): T {
  if (path === undefined || path === "" || isAbsolute(path)) return path;
  return resolve(cwd, path) as T;
}
