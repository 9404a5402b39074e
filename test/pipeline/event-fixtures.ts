import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "../../src/core/hook-event.js";

/** The captured hook payloads: Claude Code 2.1.197 and 2.1.332, droid 0.215.0, Codex 0.169.0, Gemini CLI
 * 0.61.0, and Droid's documented ones. */
export const EVENTS_DIR = join(import.meta.dirname, "..", "fixtures", "events");

/** "claude-code/Stop.json", "droid/SessionEnd-other.json", … sorted, every file under EVENTS_DIR. */
export const FIXTURE_NAMES: readonly string[] = readdirSync(EVENTS_DIR, { recursive: true })
  .map(String)
  .filter((name) => name.endsWith(".json"))
  .map((name) => name.replaceAll("\\", "/"))
  .sort();

// The payload text exactly as the client wrote it on stdin.
export function fixtureText(name: string): string {
  return readFileSync(join(EVENTS_DIR, name), "utf8");
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

// session_id → sessionId, at the top level only (that is where hook fields live).
export function toCamelKeys(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(payload).map(([key, value]) => [
      key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
      value,
    ]),
  );
}

// The folder names the client for the clients whose names differ from Claude Code's; the hook
// entries install writes pass it as --client.
export function clientOfFixture(name: string): Client | undefined {
  const folder = name.split("/")[0];
  return folder === "codex" || folder === "gemini" || folder === "copilot" || folder === "opencode"
    ? folder
    : undefined;
}

// Copilot CLI's payloads carry no event name: the file is named after the hook that got it, and
// the entry install writes passes that name as --event.
export function eventOfFixture(name: string): string | undefined {
  if (!name.startsWith("copilot/")) return undefined;
  return name.slice("copilot/".length).replace(/(-[a-z]+)?\.json$/, "");
}
