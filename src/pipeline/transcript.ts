import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** What a transcript tells about its session, read from its first and last 64 KiB only. */
export interface TranscriptFacts {
  title?: string;
  lastAssistantMessage?: string;
  /** When the person last wrote (ms since the epoch): the start of the turn a Stop ends. */
  lastUserAt?: number;
}

const WINDOW = 64 * 1024;
// Claude Code's title lines, strongest first; Droid's title is on its session_start line.
const TITLE_KEYS: Record<string, { key: string; rank: number }> = {
  "custom-title": { key: "customTitle", rank: 3 },
  "ai-title": { key: "aiTitle", rank: 2 },
  session_start: { key: "title", rank: 2 },
  summary: { key: "summary", rank: 1 },
};

// Reads the session title and the last assistant text of a Droid or Claude Code transcript.
export function readTranscriptFacts(path: string): TranscriptFacts {
  const lines = readEdgeLines(path);
  const facts: TranscriptFacts = {};
  let titleRank = 0;
  for (const line of lines) {
    const record = parseLine(line);
    if (!record) continue;
    const title = titleOf(record);
    if (title && title.rank >= titleRank) {
      facts.title = title.text;
      titleRank = title.rank;
    }
    const text = assistantTextOf(record);
    if (text) facts.lastAssistantMessage = text;
    const userAt = userPromptTime(record);
    if (userAt !== undefined) facts.lastUserAt = userAt;
  }
  return facts;
}

// Two bounded synchronous reads (head and tail) of a local file: cheaper than node:fs/promises.
function readEdgeLines(path: string): string[] {
  // O_NONBLOCK: a FIFO or a device named as the transcript must not block this synchronous open
  // (the run's deadline timer could never fire). Only regular files are read.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return [];
    const { size } = stat;
    const head = Buffer.alloc(Math.min(size, WINDOW));
    readSync(fd, head, 0, head.length, 0);
    if (size <= WINDOW) return head.toString("utf8").split("\n");
    const tail = Buffer.alloc(Math.min(size - WINDOW, WINDOW));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    // The first and last line of each window may be cut; they simply fail to parse.
    return [...head.toString("utf8").split("\n"), ...tail.toString("utf8").split("\n")];
  } finally {
    closeSync(fd);
  }
}

function parseLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function titleOf(record: Record<string, unknown>): { text: string; rank: number } | undefined {
  const spec = typeof record.type === "string" ? TITLE_KEYS[record.type] : undefined;
  const text = spec ? record[spec.key] : undefined;
  return spec && typeof text === "string" && text.trim()
    ? { text: text.trim(), rank: spec.rank }
    : undefined;
}

// Claude Code: {"type":"assistant","message":{"content":[{type:"text",text}]}}; Droid: role "assistant".
function assistantTextOf(record: Record<string, unknown>): string | undefined {
  const message = record.message as { role?: unknown; content?: unknown } | undefined;
  if (!message || typeof message !== "object" || message.role !== "assistant") return undefined;
  if (record.isSidechain === true) return undefined;
  const content = message.content;
  if (typeof content === "string") return content.trim() || undefined;
  if (!Array.isArray(content)) return undefined;
  const texts = content
    .filter((b): b is { type: "text"; text: string } => isTextBlock(b))
    .map((b) => b.text.trim());
  return texts.filter(Boolean).join("\n") || undefined;
}

// A person's prompt (not a tool result, not a sidechain or meta line) with its "timestamp".
function userPromptTime(record: Record<string, unknown>): number | undefined {
  const message = record.message as { role?: unknown; content?: unknown } | undefined;
  if (!message || typeof message !== "object" || message.role !== "user") return undefined;
  if (record.isSidechain === true || record.isMeta === true) return undefined;
  const content = message.content;
  const toolResultsOnly =
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((b) => (b as { type?: unknown } | null)?.type === "tool_result");
  const at = typeof record.timestamp === "string" ? Date.parse(record.timestamp) : NaN;
  return toolResultsOnly || Number.isNaN(at) ? undefined : at;
}

function isTextBlock(block: unknown): boolean {
  const b = block as { type?: unknown; text?: unknown } | null;
  return !!b && b.type === "text" && typeof b.text === "string";
}
