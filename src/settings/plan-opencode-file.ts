// OpenCode has no command hooks: hook-notify writes a plugin file of its own into a plugins
// folder. The file is fixed code plus one JSON object of entries (event → argv and timeout);
// nothing from an event ever becomes source, and the plugin runs hook-notify without a shell.
import { findProgram, isHookNotifyHandler } from "./hook-command.js";
import { isRecord } from "./hook-schema.js";
import type { OwnFileStep } from "./plan-copilot-file.js";
import type { Desired } from "./plan.js";
import { defineShape } from "./hooks-file-shape.js";
import { ownFileJob } from "./file-job.js";
import { OPENCODE_CODE } from "./opencode-plugin-code.js";

/** One plugin entry: the program and its arguments, and the seconds it may take. */
export interface PluginEntry {
  command: string[];
  timeout: number;
}

/** The first line of every plugin hook-notify writes; a file without it is never ours. */
export const PLUGIN_MARKER = "// hook-notify plugin for OpenCode";

/** A plugin file of hook-notify's own for one host: its first line, and the fixed code after
 * the entries (which reads them as HOOKS and runs runEntry(entry, payload) per event). */
export interface PluginKind {
  marker: string;
  code: string;
}

const START = "/* hook-notify entries: */ ";
const END = " /* end of entries */";
const OUR_FLAGS = new Set(["--client", "--timeout"]);

const OPENCODE: PluginKind = { marker: PLUGIN_MARKER, code: OPENCODE_CODE };

// The plugin file for these entries: marker, entries as JSON, then the fixed code.
export function renderOpencodePlugin(desired: Desired, kind: PluginKind = OPENCODE): string {
  const entries: Record<string, PluginEntry> = {};
  // One entry per event: these plugins run the notification (their clients take no approve ask).
  for (const [event, [handler]] of desired) {
    if (handler === undefined) continue;
    entries[event] = {
      command: [handler.command, ...(handler.args ?? [])],
      timeout: handler.timeout ?? 10,
    };
  }
  return renderEntries(entries, kind);
}

function renderEntries(entries: Record<string, PluginEntry>, kind: PluginKind): string {
  const lines = Object.entries(entries).map(
    ([event, entry]) => `  ${JSON.stringify(event)}: ${JSON.stringify(entry)}`,
  );
  const json = lines.length === 0 ? "{}" : `{\n${lines.join(",\n")}\n}`;
  const header = `${kind.marker}: written by "hook-notify install", removed by "hook-notify uninstall".`;
  return `${header}\nconst HOOKS = ${START}${json}${END};\n${kind.code}`;
}

// The entries of a plugin hook-notify wrote, or undefined for any other file.
export function readPluginEntries(
  text: string,
  kind: PluginKind = OPENCODE,
): Record<string, PluginEntry> | undefined {
  if (!text.startsWith(kind.marker)) return undefined;
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return undefined;
  try {
    const value: unknown = JSON.parse(text.slice(start + START.length, end));
    if (!isRecord(value)) return undefined;
    const entries = Object.entries(value);
    return entries.every(([, entry]) => isEntry(entry))
      ? (value as Record<string, PluginEntry>)
      : undefined;
  } catch {
    return undefined;
  }
}

function isEntry(value: unknown): value is PluginEntry {
  if (!isRecord(value) || typeof value["timeout"] !== "number") return false;
  const command = value["command"];
  return (
    Array.isArray(command) &&
    command.length > 0 &&
    command.every((word) => typeof word === "string") &&
    isHookNotifyHandler(command[0] as string, command.slice(1))
  );
}

// The entries as matcher groups (exec form), so doctor and the duplicate check read every client
// alike. Takes the entries object (readPluginEntries, or a template's JSON).
export function opencodeEventMap(root: unknown): unknown {
  if (!isRecord(root)) return undefined;
  const map: Record<string, unknown> = {};
  for (const [event, entry] of Object.entries(root)) {
    if (!isRecord(entry) || !Array.isArray(entry["command"])) continue;
    const [command, ...args] = entry["command"] as unknown[];
    map[event] = [{ hooks: [{ type: "command", command, args, timeout: entry["timeout"] }] }];
  }
  return map;
}

// Install: write ours, update an older one of ours (the user's own arguments kept), never
// overwrite a stranger's plugin.
export function planOpencodeInstall(
  current: string | undefined,
  desired: string,
  shown: string,
  kind: PluginKind = OPENCODE,
): OwnFileStep {
  const wanted = readPluginEntries(desired, kind) ?? {};
  const events = Object.keys(wanted);
  if (current === undefined)
    return step(
      desired,
      events.map((e) => `${e}: added`),
    );
  const had = readPluginEntries(current, kind);
  if (had === undefined) return refuse(current, shown);
  const next = renderEntries(keepUserArgs(wanted, had), kind);
  if (current === next) return step(current, []);
  return step(
    next,
    events.map((e) => `${e}: updated`),
  );
}

// Each wanted entry with the arguments the user added to the same event's entry (--config x).
function keepUserArgs(
  wanted: Record<string, PluginEntry>,
  had: Record<string, PluginEntry>,
): Record<string, PluginEntry> {
  const out: Record<string, PluginEntry> = {};
  for (const [event, entry] of Object.entries(wanted)) {
    out[event] = { ...entry, command: [...entry.command, ...userArgs(had[event]?.command ?? [])] };
  }
  return out;
}

// The words after the program (behind node or a launcher) that install did not write: not
// "run", --client or --timeout.
function userArgs(argv: readonly string[]): string[] {
  const own: string[] = [];
  const program = findProgram(argv);
  if (program < 0) return own;
  for (let i = program + 1; i < argv.length; i++) {
    const word = argv[i] ?? "";
    if (i === program + 1 && word === "run") continue;
    if (OUR_FLAGS.has(word)) i++;
    else if (!OUR_FLAGS.has(word.split("=", 1)[0] ?? "")) own.push(word);
  }
  return own;
}

// Uninstall: the file goes, or (with --events) keeps the other events.
export function planOpencodeUninstall(
  current: string | undefined,
  events: readonly string[] | undefined,
  shown: string,
  kind: PluginKind = OPENCODE,
): OwnFileStep {
  if (current === undefined) return step(undefined, []);
  const entries = readPluginEntries(current, kind);
  if (entries === undefined) return refuse(current, shown);
  const all = Object.keys(entries);
  const gone = events === undefined ? all : all.filter((e) => events.includes(e));
  const kept = Object.fromEntries(Object.entries(entries).filter(([e]) => !gone.includes(e)));
  const summary = gone.map((e) => `${e}: removed`);
  if (Object.keys(kept).length === 0) return step(undefined, summary);
  return step(renderEntries(kept, kind), summary);
}

function step(next: string | undefined, summary: string[]): OwnFileStep {
  return { next, summary, conflicts: [], warnings: [] };
}

function refuse(current: string, shown: string): OwnFileStep {
  const why = `${shown}: a plugin hook-notify did not write has this name. Rename it, then run again.`;
  return { next: current, summary: [], conflicts: [why], warnings: [] };
}

// A host's shape: a plugin of hook-notify's own, whose entries are read back from its text.
export function pluginShape(id: "plugin" | "pi-extension", kind: PluginKind) {
  return defineShape({
    id,
    read: (text) => readPluginEntries(text, kind),
    eventMap: opencodeEventMap,
    comments: "code",
    installJob: (input, desired) => {
      const next = renderOpencodePlugin(desired, kind);
      return ownFileJob(input, (current, shown) => planOpencodeInstall(current, next, shown, kind));
    },
    uninstallJob: (input, events) =>
      ownFileJob(input, (current, shown) => planOpencodeUninstall(current, events, shown, kind)),
  });
}

// OpenCode's shape (Kilo's too).
export const opencodeShape = pluginShape("plugin", OPENCODE);
