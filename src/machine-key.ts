// The machine-local HMAC key: 32 random bytes in a 0600 file in the state folder. It never leaves
// this machine: approve's answers and the ntfy sink's acknowledgements are signed and checked here,
// the phone only replays them (the button's body is fixed when the message is sent).
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from "node:fs";
import type * as NodeCrypto from "node:crypto";
import { dirname, join } from "node:path";
import type { Deps } from "./deps.js";
import { HookNotifyError } from "./errors.js";
import { stateDir } from "./state-dir.js";

const KEY_BYTES = 32;

// The MAC over one signed statement, base64url: `domain` tells statements of different kinds apart
// (an answer is never an acknowledgement), `fields` are what it says (no field holds a newline).
export function signFields(key: Buffer, domain: string, fields: readonly string[]): string {
  const { createHmac } = crypto();
  return createHmac("sha256", key)
    .update([domain, ...fields].join("\n"))
    .digest("base64url");
}

// True when `given` is the MAC of that statement (compared in constant time).
export function checkFields(
  key: Buffer,
  domain: string,
  fields: readonly string[],
  given: string,
): boolean {
  const expected = Buffer.from(signFields(key, domain, fields));
  const actual = Buffer.from(given);
  return actual.length === expected.length && crypto().timingSafeEqual(actual, expected);
}

// $XDG_STATE_HOME/hook-notify/approve.key (or %LOCALAPPDATA% on Windows).
export function secretPath(deps: Pick<Deps, "env" | "homedir" | "platform">): string {
  return join(stateDir(deps), "approve.key");
}

// Reads the key; refuses one that others can read, or that is not what install wrote.
export function readSecret(path: string, platform: NodeJS.Platform): Buffer {
  let text: string;
  try {
    const stat = statSync(path);
    if (platform !== "win32" && (stat.mode & 0o077) !== 0) {
      throw new HookNotifyError(
        "CONFIG_INVALID",
        `${path}: readable by other users (mode ${(stat.mode & 0o777).toString(8)}). Run: chmod 600 ${path}`,
      );
    }
    text = readFileSync(path, "utf8").trim();
  } catch (error) {
    if (error instanceof HookNotifyError) throw error;
    throw new HookNotifyError(
      "CONFIG_UNREADABLE",
      `${path}: the approve key cannot be read. Run: hook-notify install --approve`,
      { cause: error },
    );
  }
  const key = Buffer.from(text, "hex");
  if (key.length !== KEY_BYTES || key.toString("hex") !== text.toLowerCase()) {
    throw new HookNotifyError(
      "CONFIG_INVALID",
      `${path}: not an approve key. Delete it and run: hook-notify install --approve`,
    );
  }
  return key;
}

// The machine key for signing and checking, created on first use (the same key approve uses). An
// existing key that others can read is refused, not quietly made private: it may have leaked.
export function machineKey(deps: Pick<Deps, "env" | "homedir" | "platform">): Buffer {
  const path = secretPath(deps);
  if (!existsSync(path)) ensureSecret(path);
  return readSecret(path, deps.platform);
}

// Takes group and other access away from a file that holds a secret. True when it changed.
export function makePrivate(path: string): boolean {
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return false;
  chmodSync(path, mode & 0o600);
  return true;
}

// Creates the key once (O_EXCL, mode 0600); an existing key is kept, made 0600 if it was more
// open (approve refuses such a key). True when it was created.
export function ensureSecret(path: string): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    makePrivate(path);
    return false;
  }
  try {
    writeSync(fd, `${crypto().randomBytes(KEY_BYTES).toString("hex")}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

// node:crypto is fetched when a key is made or a MAC computed: the pipeline imports this module
// (through the ntfy sink), and loading node:crypto (and its streams) would cost every hook run.
function crypto(): typeof NodeCrypto {
  return process.getBuiltinModule("node:crypto");
}
