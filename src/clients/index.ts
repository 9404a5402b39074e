import type { Client } from "../core/hook-event.js";
import type { ClientAdapter } from "./adapter.js";
import { auggie } from "./auggie.js";
import { claudeCode } from "./claude-code.js";
import { codex } from "./codex.js";
import { copilot } from "./copilot.js";
import { droid } from "./droid.js";
import { gemini } from "./gemini.js";
import { kilo } from "./kilo.js";
import { opencode } from "./opencode.js";
import { qwenCode } from "./qwen-code.js";

// THE registry: adding a client = one adapter file, one line here, one template, its tests.
export const clients: readonly ClientAdapter[] = [
  droid,
  claudeCode,
  codex,
  gemini,
  copilot,
  opencode,
  qwenCode,
  kilo,
  auggie,
];

// The adapter of one client; every Client has one.
export function adapterFor(id: Client): ClientAdapter {
  const found = clients.find((adapter) => adapter.id === id);
  if (found === undefined) throw new Error(`no adapter for ${id}`);
  return found;
}
