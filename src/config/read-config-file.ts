// One config file (the user's or a project's) read as JSON, or why it could not be: not found
// (an error only when it was named), not a regular file, too large, unreadable, or not JSON
// (with the place of the mistake). The text comes back too, to place a key's problems in it.
import { HookNotifyError } from "../errors.js";
import { readBoundedSync } from "../read-bounded.js";
import { jsonErrorWhere } from "./locate-key.js";
import { MAX_CONFIG_BYTES } from "../core/defaults.js";

// A cloned repository ships the project file: it may be a FIFO or a link to /dev/zero. Only a
// regular file of at most MAX_CONFIG_BYTES is read, and the read cannot block.
export function readConfigFile(
  path: string,
  mustExist: boolean,
  next = "Check --config / HOOK_NOTIFY_CONFIG (without a file the built-in default is used).",
): { json?: unknown; text?: string; error?: HookNotifyError } {
  let text: string;
  try {
    text = readBoundedSync(path, { maxBytes: MAX_CONFIG_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !mustExist) return {};
    const why =
      code === "ENOENT"
        ? "not found"
        : code === "ENOTREG"
          ? "not a regular file (a FIFO or a device?), so it was not read"
          : code === "EFBIG"
            ? `larger than ${MAX_CONFIG_BYTES / 1024} KiB, so it was not read`
            : `cannot be read (${code ?? "error"})`;
    return {
      error: new HookNotifyError("CONFIG_UNREADABLE", `${path}: ${why}. ${next}`, { cause: error }),
    };
  }
  try {
    return { json: JSON.parse(text.replace(/^\uFEFF/, "")) as unknown, text };
  } catch (error) {
    return {
      text,
      error: new HookNotifyError(
        "CONFIG_INVALID",
        `${path}: ${jsonErrorWhere(text, error)}. Fix the file, then check it: hook-notify doctor${mustExist ? ` --config ${path}` : ""}`,
        { cause: error },
      ),
    };
  }
}
