import { join } from "node:path";
import type { Client, EventName } from "../core/hook-event.js";
import type { FileShape, LocateInput, Place, Scope } from "../core/install-target.js";

/** hook-notify's own event names, which every client's events are mapped onto. */
export type CanonicalEvent = EventName;

/** What tells a client apart when no --client names it. */
export interface Recognition {
  /** True for a payload only this client sends (an event piped in by hand). */
  readonly payload?: (raw: Record<string, unknown>) => boolean;
  /** Folders its transcripts live in, as they appear in transcript_path ("/.claude/"). */
  readonly transcriptDirs?: readonly string[];
  /** Variables it sets in its hooks' environment (an empty value counts as unset). */
  readonly env?: readonly string[];
  /** Clients whose variables it sets for its hooks too (Qwen Code sets CLAUDE_PROJECT_DIR): when
   * theirs and its own are set, it is the one running. */
  readonly alsoSets?: readonly Client[];
}

/** Where a client takes MCP servers (install --mcp registers `hook-notify mcp` there): its
 * user-scope file, the format, the key of its map of servers, and our server's entry in it. */
export interface McpPlace {
  file(input: LocateInput): string;
  readonly format: "json" | "toml";
  /** The path to the map of servers, by name ("mcpServers"; Codex's TOML: "mcp_servers"). */
  readonly servers: readonly string[];
  /** Our entry: how this client runs a program with arguments. */
  entry(command: string, args: readonly string[]): Record<string, unknown>;
}

/** The entry most clients take: `{command, args}`, with their own extra keys. */
export const stdioEntry =
  (extra: Record<string, unknown> = {}) =>
  (command: string, args: readonly string[]): Record<string, unknown> => ({
    ...extra,
    command,
    args: [...args],
  });

/** Everything hook-notify knows about one agent client, in one shape for all of them. */
export interface ClientAdapter {
  readonly id: Client;
  /** How people name the client in reports and doctor output. */
  readonly name: string;
  /** How install's sentences name it, when not by `name` (droid writes itself lowercase). */
  readonly nameInSentences?: string;
  /** How a notification names the agent ("Claude is waiting for your input"). */
  readonly agent: string;
  /** The client version whose hooks and payloads were read and tested. */
  readonly verified: string;
  /** Its program, for doctor's version line: the command on PATH, and the npm package whose
   * package.json holds the version (read instead of running `<command> --version` when found). */
  readonly program: { readonly command: string; readonly package?: string };
  /** The scopes whose hook files the client runs. */
  readonly scopes: readonly Scope[];
  /** The folder whose presence means the client is set up on this machine. */
  configDir(input: LocateInput): string;
  /** Why a scope it does not have is refused, when there is more to say than "no such scope". */
  readonly noScope?: Partial<Record<Scope, string>>;
  /** How its hooks sit in its hook files (settings/shapes.ts), and in its template. */
  readonly shape: FileShape;
  /** The "version" its hooks file must declare at the root (Cursor's hooks.json: 1): install adds
   * it to a file that has none, uninstall takes it out again with the last of ours. */
  readonly fileVersion?: number;
  /** The hook file (and wrapper) for one of its scopes. */
  locate(scope: Scope, input: LocateInput): Place;
  /** Client event → the hook-notify event it notifies as (needs-you, done, ...). */
  readonly events: Readonly<Record<string, CanonicalEvent>>;
  /** The unit of the "timeout" field in its hook entries: clients differ. */
  readonly timeoutUnit: "seconds" | "milliseconds";
  /** True when its settings file may hold comments and trailing commas (it strips them). */
  readonly acceptsJsonc: boolean;
  /** Why a hook file with comments is refused, for the error message. */
  readonly jsoncReason: string;
  /** Clients whose hooks this one runs or copies in, so one event could notify twice. */
  readonly imports: readonly Client[];
  /** What the client does with a hook's stdout and exit code: why we print nothing and exit 0. */
  readonly output: string;
  /** True when the payload has no event name, so each entry passes --event <name>. */
  readonly namesEventInArgs?: boolean;
  /** True when a plugin of ours runs hook-notify with an argument array, not a shell line. */
  readonly runsArgv?: boolean;
  /** True when it runs a project's hooks only once the person trusts the project. */
  readonly projectNeedsTrust?: boolean;
  /** True when `hook-notify approve` can answer its permission requests (install --approve). */
  readonly answersPermissions?: boolean;
  /** True when its PermissionRequest answer may carry updatedPermissions ("Allow for this
   * session"): Claude Code. Codex fails closed on them. */
  readonly takesSessionRules?: boolean;
  /** The tool that asks the person a question, when `hook-notify approve` answers it from the
   * phone (Claude Code: "AskUserQuestion", approve/question.ts): install --approve adds a
   * PreToolUse entry matching that tool. */
  readonly questionTool?: string;
  /** True when its MCP servers' forms reach a hook (Claude Code's `Elicitation`, approve/
   * elicitation.ts): install --approve adds that entry too. */
  readonly answersForms?: boolean;
  /** True when a hook can let a blocked action be tried again (Claude Code's `PermissionDenied`
   * takes `retry`, approve/retry): install --approve --retry adds that ask beside its notification. */
  readonly answersRetry?: boolean;
  /** Why install --approve writes nothing for it, when there is more to say than "not built". */
  readonly noApprove?: string;
  /** On Windows, the user-scope command: "exec" (program and arguments, no shell) or "cmd" (a
   * cmd.exe line starting with "@"); without it, the plain quoted line. */
  readonly windowsCommand?: "exec" | "cmd";
  /** True when the configured service knows its sessions, so its notifications get their titles. */
  readonly enrichedByService?: boolean;
  /** Where it takes MCP servers, for install --mcp; none: it takes none we could verify. */
  readonly mcp?: McpPlace;
  /** Said after install when the client needs a step of its own before the hooks run. */
  readonly afterInstall?: string;
  /** How a run tells this client apart from the others (pipeline's detection). */
  readonly recognises: Recognition;
  /** Variables the adapter reads (its folders): a hook hands them to the worker with the event. */
  readonly env: readonly string[];
  /** The client's payload in hook-notify's names (hook_event_name, last_assistant_message, ...). */
  toCanonical(raw: Record<string, unknown>): Record<string, unknown>;
}

// Identity, for inference: one adapter per file, each checked against the one shape.
export const defineClient = (adapter: ClientAdapter): ClientAdapter => adapter;

// The entry's timeout in the client's unit, from hook-notify's seconds.
export function toClientTimeout(adapter: ClientAdapter, seconds: number): number {
  return adapter.timeoutUnit === "milliseconds" ? seconds * 1000 : seconds;
}

// Seconds from an entry's timeout in the client's unit.
export function fromClientTimeout(adapter: ClientAdapter, value: number): number {
  return adapter.timeoutUnit === "milliseconds" ? value / 1000 : value;
}

// The project scope's wrapper script in <dir>/hooks, and the hook command that reaches it from the
// client's side (`prefix` is how the client names <dir>: a variable, or git for Codex).
export function projectWrapper(dir: string, prefix: string): NonNullable<Place["wrapper"]> {
  return { path: join(dir, "hooks", "hook-notify.sh"), command: `${prefix}/hooks/hook-notify.sh` };
}

// The client's event name as hook-notify's (its own when the adapter maps none onto ours).
export function canonicalName(adapter: Pick<ClientAdapter, "events">, name: string): string {
  return Object.hasOwn(adapter.events, name) ? (adapter.events[name] as string) : name;
}

// A copy without the keys whose value is undefined: a field a client does not send stays out.
export function compact(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
