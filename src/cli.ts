import { runCommand } from "./commands/run.js";
import { guardOutput } from "./inert-output.js";
import { toRunArgs } from "./commands/run-flags.js";
import { parseHookArgv } from "./commands/hook-argv.js";

// The one entry point. Hook mode skips yargs (it costs ~100 ms to load): the agent waits for us.
export async function main(argv: string[]): Promise<void> {
  guardOutput(); // before anything prints: outside text reaches no terminal raw
  if (isHookInvocation(argv)) {
    await runCommand(hookArgs(argv));
    return;
  }
  if (argv[0] === "approve" && !asksForHelp(argv)) {
    // Past yargs, like the hook: a usage error must not print or exit 1 in a permission hook.
    const { runApprove } = await import("./cli-yargs.js");
    await runApprove(argv.slice(1));
    return;
  }
  const { runYargs } = await import("./cli-yargs.js");
  await runYargs(argv);
}

function isHookInvocation(argv: readonly string[]): boolean {
  const first = argv[0];
  const isEvent = first?.trimStart().startsWith("{") === true;
  return (
    !asksForHelp(argv) &&
    (first === undefined || first === "run" || first.startsWith("-") || isEvent)
  );
}

function asksForHelp(argv: readonly string[]): boolean {
  return argv.some((a) => ["--help", "-h", "--version", "-v"].includes(a));
}

// Lenient on purpose: an unknown or malformed flag in a hook entry must not stop the notification.
function hookArgs(argv: readonly string[]): Parameters<typeof runCommand>[0] {
  const { values, positionals } = parseHookArgv(argv.filter((a) => a !== "run"));
  // Codex's `notify` program gets the event as its last argument, not on stdin.
  return toRunArgs(
    values,
    positionals.findLast((word) => word.trimStart().startsWith("{")),
  );
}
