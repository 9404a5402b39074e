// Where hooks go (a client and scope to a file) and where hook-notify's are installed already.
import { sep } from "node:path";
import { adapterFor, clients } from "../clients/index.js";
import type { Client } from "../core/hook-event.js";
import type { FileShape, LocateInput, Scope, Target } from "../core/install-target.js";
import { HookNotifyError } from "../errors.js";
import type { Installed } from "./double-runs.js";
import { eventsWithOurs } from "./file-shape.js";
import { shapeOf } from "./shapes.js";
import { readText } from "./read.js";

// Maps client + scope to files; each client's adapter (src/clients/) knows where it keeps hooks.
export function locateTarget(client: Client, scope: Scope, input: LocateInput): Target {
  const adapter = adapterFor(client);
  if (!adapter.scopes.includes(scope)) {
    throw new HookNotifyError(
      "USAGE",
      adapter.noScope?.[scope] ??
        `${adapter.name} has no ${scope} scope; use --scope ${adapter.scopes.join(" or ")}.`,
    );
  }
  return { client, shape: adapter.shape, ...adapter.locate(scope, input) };
}

// Shows a path the way a person thinks of it: ~ for the home folder.
export function displayPath(file: string, home: string): string {
  return file === home || file.startsWith(home + sep) ? "~" + file.slice(home.length) : file;
}

/** Every file a client reads hooks from, for each scope it has. */
export interface Location {
  client: Client;
  scope: Scope;
  file: string;
  shape: FileShape;
  /** An older file the client still reads (Droid's settings.json), which install only empties. */
  isLegacy?: boolean;
}

// All hook files of every client; Droid's legacy settings.json counts, since it fires too.
export function allLocations(input: LocateInput): Location[] {
  const out: Location[] = [];
  for (const { id: client, scopes } of clients) {
    for (const scope of scopes) {
      const target = locateTarget(client, scope, input);
      out.push({ client, scope, file: target.file, shape: target.shape });
      if (target.legacyFile !== undefined) {
        out.push({ client, scope, file: target.legacyFile, shape: "settings", isLegacy: true });
      }
    }
  }
  return out;
}

// Where hook-notify runs from once this run is done: planned texts first, the disk for the rest.
export async function findInstalled(
  input: LocateInput,
  planned: ReadonlyMap<string, string | undefined>,
  shown: (file: string) => string,
): Promise<Installed[]> {
  const seen = new Set<string>();
  const out: Installed[] = [];
  for (const location of allLocations(input)) {
    if (seen.has(location.file)) continue;
    seen.add(location.file);
    const text = planned.has(location.file)
      ? planned.get(location.file)
      : await readText(location.file, shown(location.file)).catch(() => undefined);
    const events = eventsWithOurs(text, shapeOf(location.shape));
    if (events.length > 0) out.push({ ...location, shown: shown(location.file), events });
  }
  return out;
}
