import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromClientTimeout } from "../clients/adapter.js";
import { adapterFor } from "../clients/index.js";
import { HookNotifyError } from "../errors.js";
import { copilotEventMap } from "./plan-copilot-file.js";
import { opencodeEventMap } from "./plan-opencode-file.js";
import type { Client } from "../core/hook-event.js";
import { claudeSettingsSchema, eventMapSchema, type EventMap } from "./hook-schema.js";

/** Per-event defaults read from hooks-templates/: client event → timeout in seconds, in order. */
export type EventDefaults = ReadonlyMap<string, number>;

// Finds the package folder from src/ (tests) or dist/chunks/ (the bundle) alike.
export function findPackageRoot(fromUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(fromUrl));
  for (;;) {
    if (existsSync(join(dir, "hooks-templates", "hook-notify.sh"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new HookNotifyError(
        "INTERNAL",
        "hooks-templates/ is missing from the hook-notify package. Reinstall hook-notify.",
      );
    }
    dir = parent;
  }
}

// The client's template, validated, so the defaults written are the ones the tests checked.
export async function loadTemplate(client: Client, packageRoot: string): Promise<EventDefaults> {
  const file = join(packageRoot, "hooks-templates", `${client}.json`);
  const json: unknown = JSON.parse(await readFile(file, "utf8"));
  const map: EventMap =
    client === "droid"
      ? eventMapSchema.parse(json)
      : client === "copilot"
        ? eventMapSchema.parse(copilotEventMap(json))
        : client === "opencode" || client === "kilo"
          ? eventMapSchema.parse(opencodeEventMap(json))
          : claudeSettingsSchema.parse(json).hooks;
  const adapter = adapterFor(client);
  const defaults = new Map<string, number>();
  for (const [event, groups] of Object.entries(map)) {
    const timeout = groups[0]?.hooks[0]?.timeout;
    if (timeout !== undefined) defaults.set(event, fromClientTimeout(adapter, timeout));
  }
  return defaults;
}

// The wrapper script's text, copied into a project's hooks folder.
export async function loadWrapper(packageRoot: string): Promise<string> {
  return readFile(join(packageRoot, "hooks-templates", "hook-notify.sh"), "utf8");
}

// The user-scope launcher's template (settings/launcher.ts fills in node and the script).
export async function loadLauncher(packageRoot: string): Promise<string> {
  return readFile(join(packageRoot, "hooks-templates", "launcher.sh"), "utf8");
}
