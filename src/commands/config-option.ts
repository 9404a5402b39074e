// The --config option, the same for every command that reads the config (run, test, doctor).
export const configOption = {
  alias: "c",
  type: "string",
  describe: "Config file (default: $XDG_CONFIG_HOME/hook-notify/config.json or HOOK_NOTIFY_CONFIG)",
} as const;
