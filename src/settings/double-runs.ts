import { adapterFor } from "../clients/index.js";
import type { Client } from "../core/hook-event.js";
import type { Scope } from "../core/install-target.js";

/** Where hook-notify runs from, as far as one file says. */
export interface Installed {
  client: Client;
  scope: Scope;
  file: string;
  shown: string;
  events: readonly string[];
}

// Warns when one event would run hook-notify twice, and says which copy to remove.
// Across clients only the same scope counts: that is what Droid's import of Claude Code hooks copies.
export function findDoubleRuns(here: Installed, others: readonly Installed[]): string[] {
  const warnings: string[] = [];
  for (const other of others) {
    // Across clients the same notification counts: Gemini's AfterAgent is Claude Code's Stop.
    const theirs = new Set(other.events.map((event) => notifiesAs(other.client, event)));
    const both = here.events.filter((event) => theirs.has(notifiesAs(here.client, event)));
    if (both.length === 0) continue;
    if (other.client === here.client) {
      warnings.push(
        `${both.join(", ")}: hook-notify also runs from ${other.shown}, so ${here.client} would notify twice. Keep one: hook-notify uninstall --client ${other.client} --scope ${other.scope}`,
      );
    } else if (other.scope === here.scope && importsEither(here.client, other.client)) {
      const [importer, source] = adapterFor(here.client).imports.includes(other.client)
        ? [here.client, other.client]
        : [other.client, here.client];
      warnings.push(
        `${both.join(", ")}: hook-notify is also in ${other.shown}. If ${adapterFor(importer).name} imports your ${adapterFor(source).name} hooks, it would run hook-notify twice; skip hook-notify's entries when importing, or remove the imported copy.`,
      );
    }
  }
  return warnings;
}

// Droid imports Claude Code's hooks; "gemini hooks migrate --from-claude" copies them too.
function importsEither(a: Client, b: Client): boolean {
  return adapterFor(a).imports.includes(b) || adapterFor(b).imports.includes(a);
}

function notifiesAs(client: Client, event: string): string {
  return adapterFor(client).events[event] ?? event;
}
