// What one line of a Claude Code or Droid transcript (JSONL) says, for transcript.ts: a title, the
// assistant's text, a person's prompt time. Pure: a parsed line in, a fact or nothing out.
import { own } from "../own.js";

// Claude Code's title lines, strongest first; Droid's title is on its session_start line.
const TITLE_KEYS: Record<string, { key: string; rank: number }> = {
  "custom-title": { key: "customTitle", rank: 3 },
  "ai-title": { key: "aiTitle", rank: 2 },
  session_start: { key: "title", rank: 2 },
  summary: { key: "summary", rank: 1 },
};

// A JSON object line, or nothing (a line cut at a window's edge fails here).
export function parseLine(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// The session's title a line holds, with its strength (TITLE_KEYS).
export function titleOf(
  record: Record<string, unknown>,
): { text: string; rank: number } | undefined {
  const spec = typeof record.type === "string" ? own(TITLE_KEYS, record.type) : undefined;
  const text = spec ? record[spec.key] : undefined;
  return spec && typeof text === "string" && text.trim()
    ? { text: text.trim(), rank: spec.rank }
    : undefined;
}

// The assistant's text; Claude Code: {"type":"assistant","message":{"content":[{type:"text",text}]}}; Droid: role "assistant".
export function assistantTextOf(record: Record<string, unknown>): string | undefined {
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
export function userPromptTime(record: Record<string, unknown>): number | undefined {
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
