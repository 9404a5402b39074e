// What a PermissionDenied event says was blocked: the tool and its main argument, one line. Pure.
import type { HookEvent } from "../core/hook-event.js";
import { oneLine, stripControl, truncate } from "./text.js";

/** The tool_input keys that name what a tool acts on, in the order they are looked for. */
const SUBJECT_KEYS = ["command", "file_path", "notebook_path", "url", "path", "pattern", "prompt"];

const DENIED_MAX = 300;

// "Bash: git push --force origin main"; the tool alone when its input names nothing known.
export function deniedAction(event: HookEvent): string | undefined {
  if (event.name !== "PermissionDenied") return undefined;
  const input = event.raw["tool_input"];
  const subject =
    input !== null && typeof input === "object"
      ? SUBJECT_KEYS.map((key) => (input as Record<string, unknown>)[key]).find(
          (value): value is string => typeof value === "string" && value.trim() !== "",
        )
      : undefined;
  const shown = subject === undefined ? "" : oneLine(stripControl(subject));
  const tool = event.toolName === undefined ? "" : oneLine(stripControl(event.toolName));
  const text = [tool, shown].filter(Boolean).join(": ");
  return text === "" ? undefined : truncate(text, DENIED_MAX);
}
