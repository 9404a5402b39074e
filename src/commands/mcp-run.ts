// `hook-notify mcp`'s work: a stdio MCP server (the official SDK) with one tool, `notify`, through
// which the agent asks for the person itself. A call becomes one AgentNotify event that enters the
// hook's own pipeline (pipeline/run-hook.ts in mode "hook", handed to the worker like a hook's
// event): the same routing, noise rules, presence, Do Not Disturb, receipts and log line. This
// module is bundled apart (dist/mcp.cjs, scripts/build.mjs): the SDK is loaded by this command only.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as z from "../zod.js";
import { createDeps, type Deps } from "../deps.js";
import { textInput } from "../input-source.js";
import { loadConfig } from "../config/load-config.js";
import { hookBudget } from "../pipeline/deadline.js";
import { findGitRoot } from "../pipeline/gather-context.js";
import { runHook } from "../pipeline/run-hook.js";
import { AGENT_NOTIFY_LEVELS } from "../core/hook-event.js";
import { version } from "../version.js";
import { hookLink } from "./run.js";

export const NOTIFY_TOOL = "notify";
const TITLE_MAX = 120;
const MESSAGE_MAX = 2_000;

/** Variables a client sets in its MCP servers' environment that name the session (read in the
 * client: Claude Code 2.1.332 sets CLAUDE_CODE_SESSION_ID in the environment of its children). */
export const SESSION_ENV_KEYS = ["CLAUDE_CODE_SESSION_ID"] as const;

const DESCRIPTION = [
  "Notify the person who runs this session, wherever they are (desktop, phone, chat, e-mail, as they configured hook-notify).",
  "Use it sparingly, only when the person is likely away and waits for it: a decision only they can make",
  '(level "needs-you", e.g. "The migration needs a decision: drop the old table?"), or a result they are waiting for',
  '(level "info", e.g. "Deploy is green"; level "failure" when it failed).',
  "Do not use it for progress updates, for the end of an ordinary turn (the person is told that already), or more than once for the same thing.",
  "Keep the title short (it is the line a phone shows) and the message to a sentence or two.",
].join(" ");

// The tool's arguments; the SDK checks a call against them and tells the model what to fix.
export const notifyShape = {
  title: z.string().check(z.minLength(1), z.maxLength(TITLE_MAX), z.describe("One short line.")),
  message: z
    .string()
    .check(
      z.minLength(1),
      z.maxLength(MESSAGE_MAX),
      z.describe("What happened or what is needed, in a sentence or two."),
    ),
  level: z
    .enum(AGENT_NOTIFY_LEVELS)
    .check(
      z.describe(
        '"needs-you": the person must decide or answer; "info": a result they wait for; "failure": it failed.',
      ),
    ),
  sinks: z.optional(
    z
      .array(z.string())
      .check(
        z.describe(
          "Only these of the person's configured sinks (by name). Leave it out unless the person asked for a channel.",
        ),
      ),
  ),
};

export interface NotifyArgs {
  title: string;
  message: string;
  level: (typeof AGENT_NOTIFY_LEVELS)[number];
  sinks?: string[] | undefined;
}

/** Who calls: the client's name and version from `initialize`. */
export interface Caller {
  name?: string | undefined;
  version?: string | undefined;
}

// The AgentNotify event one call stands for, in the hook payload's own (snake_case) words.
export function agentNotifyEvent(
  args: NotifyArgs,
  caller: Caller,
  where: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Record<string, unknown> {
  const sessionId = SESSION_ENV_KEYS.map((key) => where.env[key]).find(Boolean);
  return {
    hook_event_name: "AgentNotify",
    ...(sessionId ? { session_id: sessionId } : {}),
    cwd: where.cwd,
    title: args.title,
    message: args.message,
    level: args.level,
    ...(args.sinks ? { sinks: args.sinks } : {}),
    mcp_client: { name: caller.name, version: caller.version },
  };
}

/** What one notify call did, for the model. */
export async function callNotify(
  deps: Deps,
  args: NotifyArgs,
  caller: Caller,
  configPath: string | undefined,
): Promise<CallToolResult> {
  if (args.sinks) {
    const known = configuredSinks(deps, configPath);
    const unknown = args.sinks.filter((name) => !known.includes(name));
    if (unknown.length > 0)
      return failed(
        `notify: no sink named ${unknown.join(", ")}; the configured sinks are ${known.join(", ") || "none"}. Leave sinks out to use the person's routing.`,
      );
  }
  const raw = JSON.stringify(agentNotifyEvent(args, caller, deps));
  const started = deps.now();
  const eventDeps: Deps = { ...deps, stdin: textInput(raw) };
  const run = await runHook(eventDeps, {
    configPath,
    mode: "hook",
    deadline: hookBudget(started, undefined).deadline,
    explicitTimeout: false,
    link: hookLink(eventDeps, { config: configPath, dryRun: false, wait: false }, started, true),
  });
  const { record } = run;
  if (record.error) return failed(`notify: not sent: ${record.error.message}`);
  if (run.handedOver)
    return done("Sent to hook-notify; it notifies the person as they configured it.");
  const sent = record.outcomes.filter((o) => o.ok).map((o) => o.sink);
  const skipped = record.skipped.map((s) => `${s.sink} (${s.reason})`);
  return done(
    [
      sent.length > 0 ? `Notified through ${sent.join(", ")}.` : "No sink took it.",
      skipped.length > 0 ? `Not sent to ${skipped.join("; ")}.` : "",
    ]
      .filter(Boolean)
      .join(" "),
  );
}

function configuredSinks(deps: Deps, configPath: string | undefined): string[] {
  const config = loadConfig(deps, { configPath, projectDir: findGitRoot(deps.cwd) ?? deps.cwd });
  return Object.keys(config.value.sinks);
}

function done(text: string): CallToolResult {
  return { content: [{ type: "text", text }] };
}

function failed(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

// Serves until the client closes stdin. Nothing else may write to stdout: it is the protocol's.
export async function runMcpServer(options: { configPath?: string | undefined }): Promise<void> {
  const deps = createDeps();
  const server = new McpServer(
    { name: "hook-notify", version },
    {
      instructions:
        "hook-notify's notify tool reaches the person away from the terminal. Call it only for a decision they must make or a result they wait for.",
    },
  );
  server.registerTool(
    NOTIFY_TOOL,
    {
      title: "Notify the person",
      description: DESCRIPTION,
      inputSchema: notifyShape,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    (args) => {
      const info = server.server.getClientVersion();
      return callNotify(
        deps,
        args,
        { name: info?.name, version: info?.version },
        options.configPath,
      );
    },
  );
  // The client ends the server by closing its stdin; a call still running finishes first.
  const ended = new Promise<void>((resolve) => process.stdin.once("end", resolve));
  await server.connect(new StdioServerTransport());
  await ended;
}
