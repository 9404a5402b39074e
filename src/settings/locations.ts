import { clients } from "../clients/index.js";
import type { Client } from "../core/hook-event.js";
import { eventsWithOurs, type Installed } from "./duplicates.js";
import { locateTarget } from "./locate.js";
import { type FileShape, type LocateInput, type Scope } from "../core/install-target.js";
import { readText } from "./read.js";

/** Every file a client reads hooks from, for each scope it has. */
interface Location {
  client: Client;
  scope: Scope;
  file: string;
  shape: FileShape;
}

// All hook files of every client; Droid's legacy settings.json counts, since it fires too.
export function allLocations(input: LocateInput): Location[] {
  const out: Location[] = [];
  for (const { id: client, scopes } of clients) {
    for (const scope of scopes) {
      const target = locateTarget(client, scope, input);
      out.push({ client, scope, file: target.file, shape: target.shape });
      if (target.legacyFile !== undefined) {
        out.push({ client, scope, file: target.legacyFile, shape: "settings" });
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
    const events = eventsWithOurs(text, location.shape);
    if (events.length > 0) out.push({ ...location, shown: shown(location.file), events });
  }
  return out;
}
