import { defineShape, type HooksFileShape } from "./hooks-file-shape.js";
import { readJsonLeniently } from "./read.js";
import { editedInstallJob, editedUninstallJob } from "./file-job.js";
import { isRecord } from "./hook-schema.js";

// A hooks file that is the bare event map (Droid's hooks.json), edited where it stands.
export const bareShape: HooksFileShape = defineShape({
  id: "bare",
  read: readJsonLeniently,
  eventMap: (root) => root,
  mapPath: [],
  comments: "client",
  // A client that reads the bare map ignores one wrapped in {"hooks": ...}.
  conflicts: (root, shown) =>
    isRecord(root["hooks"])
      ? [
          `${shown}: the events are wrapped in {"hooks": ...}; droid ignores a wrapped hooks.json. Move the events to the top level, then run again.`,
        ]
      : [],
  installJob: (input, desired) => editedInstallJob(input, desired, bareShape),
  uninstallJob: (input, events) => editedUninstallJob(input, events, bareShape),
});
