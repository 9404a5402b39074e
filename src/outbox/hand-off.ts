// Desktop and sound handed to a worker that is already alive (issue #19): starting notify-send and
// a player costs the hook a fork and exec each plus the wait for a fast failure, which the worker
// can spend instead. The entries carry the hook's display, session bus and PATH (LOCAL_ENV_KEYS:
// no secrets) and are durable before the worker is asked. The worker answers "ok" when it will
// look at the outbox after the question; on any other answer the hook takes its entries back
// (a rename only one side can win) and runs the programs itself, as it does with no worker.
import { unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Deps } from "../deps.js";
import { readBoundedSync } from "../read-bounded.js";
import { outboxPaths } from "./paths.js";
import { enqueue, type QueuedDelivery } from "./store.js";
import { askWorker } from "./wake.js";
import { takeAside } from "./inbox.js";

/** What notify-send, osascript, PowerShell and the players need from the hook's environment. */
export const LOCAL_ENV_KEYS = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "LC_MESSAGES",
  "DISPLAY",
  "XAUTHORITY",
  "WAYLAND_DISPLAY",
  "XDG_RUNTIME_DIR",
  "XDG_SESSION_TYPE",
  "XDG_CURRENT_DESKTOP",
  "DBUS_SESSION_BUS_ADDRESS",
  "PULSE_SERVER",
  "PIPEWIRE_REMOTE",
  "WSL_DISTRO_NAME",
  "WSL_INTEROP",
  "WSLENV",
  "SystemRoot",
  "HOOK_NOTIFY_LOCAL_SINKS",
  "HOOK_NOTIFY_SETTLE_MS",
] as const;

/** How long the hook waits for the worker's answer before it runs the programs itself. */
const ANSWER_MS = 1_000;

// The hook's variables a local sink's program needs, to store in the entry.
export function localEnv(env: Deps["env"]): Record<string, string> {
  return pickEnv(env, LOCAL_ENV_KEYS);
}

// The variables of `keys` that `env` sets.
export function pickEnv(env: Deps["env"], keys: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const key of keys) {
    const value = env[key];
    if (value !== undefined) picked[key] = value;
  }
  return picked;
}

// The socket of the worker that holds the lock, if any: one small synchronous read, so a hook
// with no worker (the cold path) pays nothing more. Whether it listens is asked later.
export function workerSocket(deps: Pick<Deps, "env" | "homedir" | "platform">): string | undefined {
  try {
    const text = readBoundedSync(outboxPaths(deps).lock, { maxBytes: 4096, noFollow: true });
    const socket = (JSON.parse(text) as { socket?: unknown }).socket;
    return typeof socket === "string" ? socket : undefined;
  } catch {
    return undefined;
  }
}

/** Per delivery: true when the worker has it, false when the hook must run it itself. */
export type HandOffResult = boolean[];

// Writes one entry per local delivery, asks the worker, and takes back what it will not take.
export async function handOffLocal(
  deps: Deps,
  socket: string,
  deliveries: readonly QueuedDelivery[],
): Promise<HandOffResult> {
  const env = localEnv(deps.env);
  const keys = await Promise.all(
    deliveries.map((delivery) => enqueue(deps, { ...delivery, env }).catch(() => undefined)),
  );
  if (keys.every((key) => key === undefined)) return keys.map(() => false);
  const answer = await askWorker(socket, ANSWER_MS);
  if (answer === "ok") return keys.map((key) => key !== undefined);
  const pending = outboxPaths(deps).pending;
  return Promise.all(keys.map(async (key) => (key ? !(await takeBack(pending, key)) : false)));
}

// True when the entry was still there and is now the hook's (the worker never saw it, or will
// find it gone); false when the worker took it first.
async function takeBack(pending: string, key: string): Promise<boolean> {
  const aside = takeAside(join(pending, `${key}.json`), "back");
  if (aside === undefined) return false;
  await unlink(aside).catch(() => undefined);
  return true;
}
