import { adapterFor } from "../clients/index.js";
import { basename } from "node:path";
import { HookNotifyError } from "../errors.js";
import type { Client } from "../core/hook-event.js";

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

// A handler is ours by its command string, or in exec form (Claude Code's `args`) by the program
// and its arguments together.
export function isHookNotifyHandler(command: string, args: unknown): boolean {
  if (Array.isArray(args) && args.every((arg) => typeof arg === "string")) {
    return findProgram([command, ...args]) >= 0;
  }
  return isHookNotifyCommand(command);
}

/** What one of our entries does: notify (the default command), or ask the phone (`approve`). An
 * event can hold one of each (Claude Code's PermissionDenied: the "blocked" notification and the
 * "Let it retry" ask), so install matches entries to what it wants by kind. */
export type HandlerKind = "notify" | "approve";

// The kind of a handler of ours, from the word after hook-notify itself (in a `sh -c` string too).
export function handlerKind(command: string, args?: unknown): HandlerKind {
  const words = Array.isArray(args)
    ? [command, ...args.filter((arg): arg is string => typeof arg === "string")]
    : splitWords(command);
  return kindIn(words) ?? "notify";
}

function kindIn(words: readonly string[]): HandlerKind | undefined {
  for (const [index, word] of words.entries()) {
    if (OUR_PROGRAMS.has(programName(word.replace(/^@/, "")))) {
      return words[index + 1] === "approve" ? "approve" : "notify";
    }
    const nested = /\s/.test(word) ? kindIn(splitWords(word)) : undefined;
    if (nested !== undefined) return nested;
  }
  return undefined;
}

// The index of the word that is hook-notify itself (after VAR=x and launchers), or -1.
export function findProgram(words: readonly string[]): number {
  let index = 0;
  while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? "")) index++;
  for (; index < words.length; index++) {
    // cmd.exe's "@" (no echo) starts our Droid commands on Windows.
    const word = index === 0 ? (words[index] ?? "").replace(/^@/, "") : (words[index] ?? "");
    const name = programName(word);
    if (OUR_PROGRAMS.has(name)) return index;
    if (word.startsWith("-") && index > 0) continue;
    if (!LAUNCHERS.has(name)) return -1;
  }
  return -1;
}

// The absolute paths a handler runs (node and the script), for doctor: the words before the first
// flag that are absolute paths. A wrapper or a bare "hook-notify" on PATH has none.
export function programPaths(command: string, args: unknown): string[] {
  const words = Array.isArray(args)
    ? [command, ...args.filter((arg): arg is string => typeof arg === "string")]
    : splitWords(command);
  const paths: string[] = [];
  for (const [index, raw] of words.entries()) {
    const word = index === 0 ? raw.replace(/^@/, "") : raw;
    if (word.startsWith("-")) break;
    if (word.startsWith("/") || /^[A-Za-z]:[\\/]/.test(word)) paths.push(word);
  }
  return paths;
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

// Quotes a path for the hook's shell: sh everywhere, cmd.exe for Droid on Windows (where a path
// cannot hold a double quote, and nothing inside double quotes but % is special).
export function quoteForShell(path: string, platform: NodeJS.Platform): string {
  if (platform === "win32") return `"${path}"`;
  return `"${path.replace(/(["\\$`])/g, "\\$1")}"`;
}

/** What the hook command starts with: the absolute program (user scope) or the wrapper. */
export interface CommandBase {
  /** Already quoted, e.g. `"/usr/bin/node" "/opt/hook-notify/bin/hook-notify.cjs"`. */
  program: string;
  /** Exec form (Claude Code on Windows): the program and its first arguments, no shell. */
  exec?: { command: string; args: string[] } | undefined;
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

// The PermissionRequest entry of install --approve: `approve` has its own, longer budget, and
// names the client it answers (its payload, its title on the phone).
export function buildApproveCommand(base: CommandBase, client: Client, timeout: number): string {
  return `${base.program} approve --client ${client} --timeout ${timeout}`;
}

// The handler's command, and in exec form its args: what install writes.
export function buildHandlerCommand(
  base: CommandBase,
  client: Client,
  timeout: number,
  event?: string,
): { command: string; args?: string[] } {
  if (!base.exec) return { command: buildCommand(base, client, timeout, event) };
  const named = event === undefined ? [] : ["--event", event];
  const flags = ["--client", client, ...named, "--timeout", String(timeout)];
  return { command: base.exec.command, args: [...base.exec.args, ...flags] };
}

// User scope: node + the script, both absolute, so it works in any shell without PATH. On Windows
// Claude Code gets exec form (no shell: Git Bash and PowerShell quote differently), and Droid a
// line for cmd.exe that starts with "@", so no version of cmd's /s quote stripping can touch it.
// Other clients keep the plain quoted line (not checked on Windows here).
export function absoluteProgram(
  nodePath: string,
  scriptPath: string,
  platform: NodeJS.Platform,
  client?: Client,
): CommandBase {
  const program = `${quoteForShell(nodePath, platform)} ${quoteForShell(scriptPath, platform)}`;
  const form = client === undefined ? undefined : adapterFor(client).windowsCommand;
  if (platform !== "win32" || form === undefined) return { program };
  if (form === "exec") {
    return { program, exec: { command: nodePath, args: [scriptPath] } };
  }
  const expanded = [nodePath, scriptPath].find((path) => path.includes("%"));
  if (expanded !== undefined) {
    throw new HookNotifyError(
      "USAGE",
      `${expanded}: cmd.exe, which runs Droid's hooks on Windows, would expand the "%" in this path. Install Node.js and hook-notify in folders without "%", then run install again.`,
    );
  }
  return { program: `@${program}` };
}
