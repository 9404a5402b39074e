// `hook-notify uninstall`: takes out only what install put in, leaving every other hook alone.
import type { CommandModule } from "yargs";
import { runSettingsHandler } from "./install.js";
import { withSettingsFlags, type SettingsFlags } from "./settings-flags.js";

export const uninstallCommand: CommandModule<object, SettingsFlags> = {
  command: "uninstall",
  describe: "Remove hook-notify's hook entries (and its launcher or project wrapper) again",
  builder: (yargs) =>
    withSettingsFlags(yargs, "uninstall")
      .example("$0 uninstall --client claude-code", "from ~/.claude/settings.json")
      .example(
        "$0 uninstall --client droid --scope project --dry-run",
        "show what would be removed",
      )
      .example("$0 uninstall --client droid --yes --json", "in a script: the result as JSON"),
  handler: async (flags) => {
    await runSettingsHandler("uninstall", flags);
  },
};
