// Real notifications for the pictures: captured hook payloads through parseEvent and
// formatNotification, the same calls run-hook.ts makes.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatNotification } from "../../src/message/format.js";
import type { Config } from "../../src/core/config.js";
import type { Notification } from "../../src/core/notification.js";
import { gatherContext } from "../../src/pipeline/gather-context.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";

/** One picture case: a file-name suffix and the captured payload it comes from. */
export interface PictureCase {
  name: "done" | "attention" | "failure";
  fixture: string;
}

export const CASES: PictureCase[] = [
  { name: "done", fixture: "claude-code/Stop.json" },
  { name: "attention", fixture: "droid-documented/Notification-permission.json" },
  { name: "failure", fixture: "droid/SessionEnd-other.json" },
];

// A fixed clock and id keep the pictures the same from run to run.
const NOW = Date.parse("2026-11-22T12:00:00.000Z");

// Builds the notification a hook run would build for the fixture, in project "shop-api".
export function notificationFor(root: string, fixture: string, config: Config): Notification {
  const input = readFileSync(join(root, "test/fixtures/events", fixture), "utf8");
  const event = parseEvent(input);
  if ("ignored" in event) throw new Error(`${fixture}: event ${event.ignored} is ignored`);
  const context = { ...gatherContext(event, { cwd: root, env: {} }), project: "shop-api" };
  return formatNotification(event, context, {
    templates: config.templates,
    maxBodyLength: config.maxBodyLength,
    id: "01JDX4Z8N3M6Q2T9V5W7Y0B1C3",
    now: NOW,
  });
}
