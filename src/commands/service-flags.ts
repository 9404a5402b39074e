// The flags every command that talks to the service shares (sessions, computers, usage,
// controls), kept apart from service-command.ts so that a command's builder loads nothing else.
import type { Options } from "yargs";

/** Seconds a service command waits for the service before it gives up (--timeout). */
export const DEFAULT_TIMEOUT_SECONDS = 30;

export const timeoutOption: Options = {
  type: "number",
  default: DEFAULT_TIMEOUT_SECONDS,
  describe: "Seconds to wait for the service (1-600)",
};

// --timeout checked (a yargs .check): a number of seconds from 1 to 600.
export function checkTimeout(argv: { timeout?: unknown }): true {
  const value = argv.timeout;
  if (value !== undefined && !(typeof value === "number" && value >= 1 && value <= 600))
    throw new Error(
      `--timeout ${typeof value === "number" && !Number.isNaN(value) ? String(value) : "is not a number"}: give the seconds to wait for the service, from 1 to 600.`,
    );
  return true;
}
