import { defineShape } from "./hooks-file-shape.js";
import { readJsonLeniently } from "./double-runs.js";
import { editedInstallJob, editedUninstallJob } from "./plan-jobs.js";
import { isRecord } from "./hook-schema.js";

// A settings file (Claude Code's settings.json, Codex's hooks.json, Gemini's settings.json): the
// event map sits under "hooks", beside the client's other settings, and is edited where it stands.
export const settingsShape = defineShape({
  id: "settings",
  read: readJsonLeniently,
  // Only a missing "hooks" means none yet; "hooks": null is a value we cannot add events to.
  eventMap: (root) => {
    if (!isRecord(root)) return undefined;
    return root["hooks"] === undefined ? {} : root["hooks"];
  },
  mapPath: ["hooks"],
  comments: "client",
  installJob: editedInstallJob,
  uninstallJob: editedUninstallJob,
});
