import type { Handover } from "./commands/run.js";
import { guardOutput } from "./inert-output.js";
import { asksForHelp, hookArgs, isHookInvocation } from "./commands/hook-argv.js";
import { ranAs } from "./commands/ran-kind.js";

export { ranKind } from "./commands/ran-kind.js";

// The one entry point. Hook mode skips yargs (it costs ~100 ms to load): the agent waits for us.
export async function main(argv: string[], handover: Handover = {}): Promise<void> {
  guardOutput(); // before anything prints: outside text reaches no terminal raw
  if (isHookInvocation(argv)) {
    // Loaded here, not at the top: in dist/commands.cjs a typed command never evaluates the run
    // pipeline (dist/cli.cjs, the hook's full path, loads it at once either way).
    const { runCommand } = await import("./commands/run.js");
    await runCommand(hookArgs(argv), handover);
    return;
  }
  if (argv[0] === "approve" && !asksForHelp(argv)) {
    // Past yargs, like the hook: a usage error must not print or exit 1 in a permission hook.
    ranAs("approve");
    const { runApprove } = await import("./cli-yargs.js");
    await runApprove(argv.slice(1));
    return;
  }
  const { runYargs } = await import("./cli-yargs.js");
  await runYargs(argv);
}
