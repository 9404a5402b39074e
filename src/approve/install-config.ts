// The hook-notify side of `install --approve`: a usable ntfy or Telegram sink must exist (ntfy with
// a token, Telegram with a bot token and a numeric chat id); for ntfy the config gets a random reply topic (once, kept on later runs) and the state folder a 0600 key. Neither the
// topic nor the key is ever printed.
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { applyEdits, modify } from "jsonc-parser";
import { loadConfig } from "../config/load-config.js";
import type { Deps } from "../deps.js";
import { HookNotifyError } from "../errors.js";
import { ensureSecret, makePrivate, secretPath } from "../machine-key.js";
import { isTelegramSetup, resolveSetup } from "./setup.js";

/** What install --approve will do to the config and the key, checked before anything is written. */
export interface ApproveInstallPlan {
  configPath: string;
  /** The PermissionRequest entry's timeout: approveSeconds plus 30 s. */
  timeout: number;
  addTopic: boolean;
  keyPath: string;
}

const ENTRY_MARGIN_SECONDS = 30;
// Read and write for the owner at most: a file holding a token is nobody else's to read.
const PRIVATE_FILE = 0o600;

// Checks the config can carry approvals; throws a HookNotifyError saying what to add when not.
export function planApproveInstall(
  deps: Pick<Deps, "env" | "homedir" | "platform">,
): ApproveInstallPlan {
  const loaded = loadConfig(deps, {});
  if (loaded.error) throw loaded.error;
  if (loaded.path === undefined) {
    throw new HookNotifyError(
      "USAGE",
      'install --approve needs a config file with a chat sink of "service": "ntfy" (a private topic with a token). Create one with: hook-notify init',
    );
  }
  const placeholder = loaded.value.approveReplyTopic ?? "hn-reply-placeholder-0000000000";
  const setup = resolveSetup({ ...loaded.value, approveReplyTopic: placeholder });
  if ("problem" in setup) {
    // A sink the config left out (a Telegram entry without its bot token) is the likely cause.
    const leftOut = loaded.issues.length > 0 ? ` (left out: ${loaded.issues.join("; ")})` : "";
    throw new HookNotifyError("USAGE", `${loaded.path}: ${setup.problem}${leftOut}`);
  }
  return {
    configPath: loaded.path,
    timeout: setup.seconds + ENTRY_MARGIN_SECONDS,
    // Telegram needs no reply topic: the presses come back to the bot.
    addTopic: !isTelegramSetup(setup) && loaded.value.approveReplyTopic === undefined,
    keyPath: secretPath(deps),
  };
}

// Writes the reply topic into the config (formatting and comments kept) and creates the key.
export function applyApproveInstall(plan: ApproveInstallPlan): string[] {
  const done: string[] = [];
  if (plan.addTopic) {
    const text = readFileSync(plan.configPath, "utf8");
    const topic = `hn-${randomBytes(24).toString("base64url")}`;
    const edits = modify(text, ["approveReplyTopic"], topic, {
      formattingOptions: { insertSpaces: true, tabSize: 2 },
    });
    const temp = `${plan.configPath}.${randomBytes(4).toString("hex")}.tmp`;
    // The file holds the token and now the reply topic: the owner's alone, whatever it was.
    writeFileSync(temp, applyEdits(text, edits), {
      mode: statSync(plan.configPath).mode & PRIVATE_FILE,
    });
    renameSync(temp, plan.configPath);
    done.push(
      `${plan.configPath}: approveReplyTopic added (a new random topic; it stays in this file; mode 600)`,
    );
  } else if (makePrivate(plan.configPath)) {
    done.push(`${plan.configPath}: made readable by you alone (mode 600): it holds the token`);
  }
  if (ensureSecret(plan.keyPath)) done.push(`${plan.keyPath}: approve key created (mode 600)`);
  return done;
}

// What --dry-run says instead of writing.
export function describeApproveInstall(plan: ApproveInstallPlan): string[] {
  const lines = [`PermissionRequest entry: hook-notify approve, timeout ${plan.timeout} s`];
  if (plan.addTopic) lines.push(`${plan.configPath}: would add approveReplyTopic (a random topic)`);
  lines.push(`${plan.keyPath}: the approve key is created if missing (mode 600)`);
  return lines;
}
