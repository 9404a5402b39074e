import { defineShape } from "./hooks-file-shape.js";
import { readJsonLeniently } from "./double-runs.js";
import { editedInstallJob, editedUninstallJob } from "./plan-jobs.js";
import { isRecord } from "./hook-schema.js";

// A hooks file that is the bare event map (Droid's hooks.json), edited where it stands.
export const bareShape = defineShape({
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
  installJob: editedInstallJob,
  uninstallJob: editedUninstallJob,
});
