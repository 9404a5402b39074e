import type { SinkEntry } from "../../src/core/config.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import type { Notification } from "../../src/core/notification.js";
import type { Sink } from "../../src/sinks/sink.js";
import { testDeps } from "./sample-notification.js";

type SendOptions = { wait?: boolean; ms?: number } & Record<string, unknown>;

// `send(notification, env, {wait, ms, ...options})` for one sink: options parsed by its schema,
// a deadline signal of `ms`, and Deps whose env is exactly `env`.
export function sinkSender<Options>(sink: Sink<Options>, sinkName: string) {
  const options = (input: Record<string, unknown> = {}): Options => sink.options.parse(input);
  const send = (
    notification: Notification,
    env: Record<string, string>,
    { wait = true, ms = 8_000, ...opts }: SendOptions = {},
  ): Promise<unknown> =>
    sink.send(notification, options(opts), {
      signal: AbortSignal.timeout(ms),
      deps: testDeps(env),
      sinkName,
      wait,
    });
  return { options, send };
}

// A throwaway directory, removed when the test finishes.
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `hook-notify-${prefix}-`));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

// Where a shell run of hostile text would create a file; the tests assert it never appears.
export function canaryPath(): string {
  return join(tempDir("canary"), "canary");
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// A config entry for a desktop sink named "desk" as validateConfig would return it (doctor's checks).
export function desktopEntry(options: Record<string, unknown>): SinkEntry {
  return {
    name: "desk",
    type: "desktop",
    events: ["Stop"],
    when: "always",
    enabled: true,
    options,
  };
}
