import { defineShape, type HooksFileShape } from "./hooks-file-shape.js";
import { readJsonLeniently } from "./read.js";
import { editedInstallJob, editedUninstallJob } from "./file-job.js";
import { isRecord } from "./hook-schema.js";

// A settings file (Claude Code's settings.json, Codex's hooks.json, Gemini's settings.json): the
// event map sits under "hooks", beside the client's other settings, and is edited where it stands.
export const settingsShape: HooksFileShape = defineShape({
  id: "settings",
  read: readJsonLeniently,
  // Only a missing "hooks" means none yet; "hooks": null is a value we cannot add events to.
  eventMap: (root) => {
    if (!isRecord(root)) return undefined;
    return root["hooks"] === undefined ? {} : root["hooks"];
  },
  mapPath: ["hooks"],
  comments: "client",
  installJob: (input, desired) => editedInstallJob(input, desired, settingsShape),
  uninstallJob: (input, events) => editedUninstallJob(input, events, settingsShape),
});
