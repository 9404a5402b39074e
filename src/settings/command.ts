import { basename } from "node:path";
import type { Client } from "../pipeline/hook-event.js";

/** Program names that mean "this handler runs hook-notify" (bin, script, our wrappers). */
const OUR_PROGRAMS = new Set([
  "hook-notify",
  "hook-notify.js",
  "hook-notify.mjs",
  "hook-notify.cjs",
  "hook-notify.sh",
  "hook-notify.cmd",
  "hook-notify.ps1",
  "hook-notify.exe",
]);

/** Launchers that run the program named after them (node script, npx hook-notify, ...). */
const LAUNCHERS = new Set(["node", "node.exe", "nodejs", "npx", "bunx", "exec", "sh", "bash"]);

// Recognises our own entries, also older ones with other paths, launchers or timeouts.
export function isHookNotifyCommand(command: string): boolean {
  return findProgram(splitWords(command)) >= 0;
}

// The index of the word that is hook-notify itself (after VAR=x and launchers), or -1.
export function findProgram(words: readonly string[]): number {
  let index = 0;
  while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? "")) index++;
  for (; index < words.length; index++) {
    const word = words[index] ?? "";
    const name = programName(word);
    if (OUR_PROGRAMS.has(name)) return index;
    if (word.startsWith("-") && index > 0) continue;
    if (!LAUNCHERS.has(name)) return -1;
  }
  return -1;
}

// The last path segment of a word, for either slash ("$X"/a/b.sh, C:\a\b.js).
function programName(word: string): string {
  return basename(word.replaceAll("\\", "/")).toLowerCase();
}

// Splits a command line into words the way sh would for plain quoting (no expansion).
export function splitWords(command: string): string[] {
  const words: string[] = [];
  let current: string | undefined;
  let quote: string | undefined;
  for (const char of command) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else current = (current ?? "") + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      current ??= "";
    } else if (/\s/.test(char)) {
      if (current !== undefined) words.push(current);
      current = undefined;
    } else {
      current = (current ?? "") + char;
    }
  }
  if (current !== undefined) words.push(current);
  return words;
}

// Quotes a path for the hook's shell: sh everywhere, cmd.exe for Droid on Windows.
export function quoteForShell(path: string, platform: NodeJS.Platform): string {
  if (platform === "win32") return `"${path}"`;
  return `"${path.replace(/(["\\$`])/g, "\\$1")}"`;
}

/** What the hook command starts with: the absolute program (user scope) or the wrapper. */
export interface CommandBase {
  /** Already quoted, e.g. `"/usr/bin/node" "/opt/hook-notify/bin/hook-notify.js"`. */
  program: string;
}

// The full hook command: the budget and the caller travel with it.
// Copilot CLI sends no event name, so its entries name the event they are for (--event).
export function buildCommand(
  base: CommandBase,
  client: Client,
  timeout: number,
  event?: string,
): string {
  const named = event === undefined ? "" : ` --event ${event}`;
  return `${base.program} --client ${client}${named} --timeout ${timeout}`;
}

// The PermissionRequest entry of install --approve: `approve` has its own, longer budget.
export function buildApproveCommand(base: CommandBase, timeout: number): string {
  return `${base.program} approve --timeout ${timeout}`;
}

// User scope: node + the script, both absolute, so it works in any shell without PATH.
export function absoluteProgram(
  nodePath: string,
  scriptPath: string,
  platform: NodeJS.Platform,
): CommandBase {
  return { program: `${quoteForShell(nodePath, platform)} ${quoteForShell(scriptPath, platform)}` };
}
