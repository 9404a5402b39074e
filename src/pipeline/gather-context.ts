import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Deps } from "../deps.js";
import type { Client, HookEvent } from "../core/hook-event.js";
import { readTranscriptFacts } from "./transcript.js";
import type { EventContext } from "../core/event-context.js";

// Project, client, session title and last assistant message, with bounded, failure-tolerant reads.
export function gatherContext(
  event: HookEvent,
  deps: Pick<Deps, "cwd" | "env">,
  clientHint?: Client,
): EventContext {
  const cwd = event.cwd ?? deps.cwd;
  const projectDir = findGitRoot(cwd) ?? cwd;
  const context: EventContext = { project: basename(projectDir) || projectDir, projectDir };
  const client = clientHint ?? event.client ?? detectClient(event, deps.env);
  if (client) context.client = client;
  const facts = event.transcriptPath ? readTranscriptFactsOrNothing(event.transcriptPath) : {};
  if (facts.title) context.sessionTitle = facts.title;
  const lastMessage =
    event.lastAssistantMessage ??
    (needsLastMessage(event) ? facts.lastAssistantMessage : undefined);
  if (lastMessage) context.lastMessage = lastMessage;
  if (facts.lastUserAt !== undefined) context.turnStartedAt = facts.lastUserAt;
  return context;
}

function needsLastMessage(event: HookEvent): boolean {
  return event.name === "Stop" || event.name === "SubagentStop" || event.name === "StopFailure";
}

// Walks up at most 40 directories looking for .git (a folder, or a file in worktrees).
export function findGitRoot(start: string): string | undefined {
  let dir = start;
  for (let depth = 0; depth < 40; depth += 1) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

// The transcript's home tells the client apart; the hook's environment is the fallback.
export function detectClient(
  event: HookEvent,
  env: Readonly<Record<string, string | undefined>>,
): Client | undefined {
  const path = event.transcriptPath?.replaceAll("\\", "/") ?? "";
  if (path.includes("/.factory/")) return "droid";
  if (path.includes("/.gemini/") || env.GEMINI_SESSION_ID) return "gemini";
  // Qwen Code also sets CLAUDE_PROJECT_DIR for its hooks.
  if (path.includes("/.qwen/") || env.QWEN_PROJECT_DIR) return "qwen-code";
  if (path.includes("/.claude/")) return "claude-code";
  if (env.FACTORY_PROJECT_DIR || env.DROID_PROJECT_DIR) return "droid";
  if (env.CLAUDE_PROJECT_DIR || env.CLAUDECODE) return "claude-code";
  return undefined;
}

// A missing or unreadable transcript only means less context.
function readTranscriptFactsOrNothing(path: string): ReturnType<typeof readTranscriptFacts> {
  try {
    return readTranscriptFacts(path);
  } catch {
    return {};
  }
}
