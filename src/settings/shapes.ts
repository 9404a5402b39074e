import type { FileShape } from "../core/install-target.js";
import type { HooksFileShape } from "./hooks-file-shape.js";
import { bareShape } from "./shape-bare.js";
import { entriesShape } from "./shape-entries.js";
import { settingsShape } from "./shape-settings.js";
import { copilotShape } from "./plan-copilot-file.js";
import { opencodeShape } from "./plan-opencode-file.js";
import { piShape } from "./plan-pi-file.js";

// THE list of hooks-file shapes: a new one is one file with a defineShape and one line here.
export const shapes: readonly HooksFileShape[] = [
  settingsShape,
  bareShape,
  copilotShape,
  entriesShape,
  opencodeShape,
  piShape,
];

// The shape of one id; every FileShape has one.
export function shapeOf(id: FileShape): HooksFileShape {
  const found = shapes.find((shape) => shape.id === id);
  if (found === undefined) throw new Error(`no hooks-file shape ${id}`);
  return found;
}
