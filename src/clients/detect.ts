// Which client a run comes from when no --client says so, from what each adapter recognises:
// first a payload only one client sends, then the transcript's folder, then the hook's variables.
import type { Client } from "../core/hook-event.js";
import type { ClientAdapter } from "./adapter.js";
import { clients } from "./index.js";

// A payload only one client sends, for an event piped in by hand without --client.
export function clientOfPayload(raw: Record<string, unknown>): Client | undefined {
  return clients.find((adapter) => adapter.recognises.payload?.(raw) === true)?.id;
}

// The transcript's home tells the client apart; the hook's environment is the fallback. When the
// variables of several clients are set, a client that runs another's hooks (`imports`) or says it
// sets that client's variables (`alsoSets`) sets them too (Gemini and Qwen Code set
// CLAUDE_PROJECT_DIR), so it is the one running.
export function clientOfRun(
  transcriptPath: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Client | undefined {
  const path = transcriptPath?.replaceAll("\\", "/") ?? "";
  const byPath = clients.find((adapter) =>
    (adapter.recognises.transcriptDirs ?? []).some((dir) => path.includes(dir)),
  );
  if (byPath !== undefined) return byPath.id;
  const set = clients.filter((adapter) =>
    (adapter.recognises.env ?? []).some((name) => Boolean(env[name])),
  );
  return (set.find((adapter) => !isSetBy(adapter, set)) ?? set[0])?.id;
}

function isSetBy(adapter: ClientAdapter, others: readonly ClientAdapter[]): boolean {
  return others.some(
    (other) =>
      other !== adapter &&
      (other.imports.includes(adapter.id) ||
        (other.recognises.alsoSets ?? []).includes(adapter.id)),
  );
}
