import type { Client } from "../core/hook-event.js";
import type { ClientAdapter } from "./adapter.js";
import { auggie } from "./auggie.js";
import { claudeCode } from "./claude-code.js";
import { codex } from "./codex.js";
import { copilot } from "./copilot.js";
import { crush } from "./crush.js";
import { cursor } from "./cursor.js";
import { droid } from "./droid.js";
import { gemini } from "./gemini.js";
import { kilo } from "./kilo.js";
import { opencode } from "./opencode.js";
import { pi } from "./pi.js";
import { qoder } from "./qoder.js";
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
  crush,
  cursor,
  qoder,
  pi,
];

/** Every client id, in the registry's order (--client's choices). */
export const CLIENT_IDS: readonly Client[] = clients.map((adapter) => adapter.id);

// True for a --client value hook-notify knows.
export function isClient(value: unknown): value is Client {
  return (CLIENT_IDS as readonly unknown[]).includes(value);
}

// The adapter of an id from outside (a record, a flag), if hook-notify knows that client.
export function findAdapter(id: unknown): ClientAdapter | undefined {
  return clients.find((adapter) => adapter.id === id);
}

// The clients whose permission requests `hook-notify approve` answers (install --approve).
export function approvingClients(): ClientAdapter[] {
  return clients.filter((adapter) => adapter.answersPermissions === true);
}

// The client `approve --client <id>` answers for: Claude Code when no --client is given (the
// entries install wrote before Codex could be answered); undefined for one it cannot answer.
export function approverFor(id: unknown): ClientAdapter | undefined {
  const adapter = id === undefined ? claudeCode : findAdapter(id);
  return adapter?.answersPermissions === true ? adapter : undefined;
}

// How install's sentences name a client.
export function sentenceName(adapter: ClientAdapter): string {
  return adapter.nameInSentences ?? adapter.name;
}

// The adapter of one client; every Client has one.
export function adapterFor(id: Client): ClientAdapter {
  const found = clients.find((adapter) => adapter.id === id);
  if (found === undefined) throw new Error(`no adapter for ${id}`);
  return found;
}

// The clients' names for help texts, in the registry's order: "A, B and C" ("or"), or "A, B, C".
export function clientNames(last: "and" | "or" | ","): string {
  const names = clients.map((adapter) => adapter.name);
  if (last === "," || names.length < 2) return names.join(", ");
  return `${names.slice(0, -1).join(", ")} ${last} ${names.at(-1) ?? ""}`;
}
