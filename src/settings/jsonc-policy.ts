import { adapterFor } from "../clients/index.js";
import { HookNotifyError } from "../errors.js";
import type { Client } from "../core/hook-event.js";
import { firstJsoncProblem, parseSettings } from "./read.js";
import { toStrictJson } from "./strict-json.js";

/** How to treat JSONC in a file: refuse, rewrite as strict JSON (--fix-jsonc), or keep (legacy). */
export type JsoncPolicy = "refuse" | "fix" | "keep";

/** The text plan should work on, and a note when it differs from the file's own text. */
export interface Checked {
  text: string | undefined;
  note: string | undefined;
}

// Refuses files the client would reject; JSONC only passes where we must keep it or were told to fix it.
export function checkText(
  text: string | undefined,
  client: Client,
  shown: string,
  policy: JsoncPolicy,
): Checked {
  if (text === undefined) return { text, note: undefined };
  const parsed = parseSettings(text, shown);
  const adapter = adapterFor(client);
  if (!parsed.isJsonc || policy === "keep" || adapter.acceptsJsonc)
    return { text, note: undefined };
  if (policy === "fix") {
    return { text: toStrictJson(text), note: "rewritten as strict JSON (comments dropped)" };
  }
  const problem = firstJsoncProblem(text);
  const why = adapter.jsoncReason;
  throw new HookNotifyError(
    "SETTINGS_INVALID",
    `${shown}: ${problem}; ${why}. Remove it, or run again with --fix-jsonc to rewrite the file as strict JSON (the original is kept as .bak).`,
  );
}
