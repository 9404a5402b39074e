import { textInput } from "../../src/input-source.js";
import { PassThrough } from "node:stream";
import type { Deps } from "../../src/deps.js";
import type { Notification } from "../../src/core/notification.js";

// A realistic failure notification, with markup and quotes in the agent text.
export function sampleNotification(overrides: Partial<Notification> = {}): Notification {
  return {
    id: "01JDX4Z8N3M6Q2T9V5W7Y0B1C3",
    event: "SessionEnd",
    failure: true,
    level: "failure",
    title: "shop-api · Session ended with an error",
    body: 'Tests failed: <script>alert("x")</script> & more',
    project: "shop-api",
    client: "claude-code",
    cwd: "/home/dev/shop-api",
    sessionId: "abc-123",
    sessionTitle: "Fix checkout",
    reason: "error",
    timestamp: "2026-11-22T12:00:00.000Z",
    raw: { hook_event_name: "SessionEnd", session_id: "abc-123", reason: "error" },
    ...overrides,
  };
}

// Deps for tests: a temp HOME/XDG, no proxies, a fixed or real clock.
export function testDeps(
  env: Record<string, string | undefined> = {},
  now: () => number = Date.now,
): Deps {
  return {
    stdin: textInput(""),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: { NO_PROXY: "127.0.0.1,localhost", ...env },
    platform: process.platform,
    cwd: process.cwd(),
    homedir: env.HOME ?? process.cwd(),
    now,
  };
}
