import { sep } from "node:path";
import { adapterFor } from "../clients/index.js";
import { HookNotifyError } from "../errors.js";
import type { Client } from "../core/hook-event.js";
import type { LocateInput, Scope, Target } from "../core/install-target.js";

// Maps client + scope to files; each client's adapter (src/clients/) knows where it keeps hooks.
export function locateTarget(client: Client, scope: Scope, input: LocateInput): Target {
  const adapter = adapterFor(client);
  if (!adapter.scopes.includes(scope)) {
    if (client === "droid") return adapter.locate(scope, input); // says why local never fires
    throw new HookNotifyError(
      "USAGE",
      `${adapter.name} has no ${scope} scope; use --scope ${adapter.scopes.join(" or ")}.`,
    );
  }
  return adapter.locate(scope, input);
}

// Shows a path the way a person thinks of it: ~ for the home folder.
export function displayPath(file: string, home: string): string {
  return file === home || file.startsWith(home + sep) ? "~" + file.slice(home.length) : file;
}
