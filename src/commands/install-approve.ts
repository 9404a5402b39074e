// `install --approve`'s two steps around the settings: check the config before any file is
// touched, then write the reply topic into the config and the key into the state folder.
import type { ApproveInstallPlan as ApprovePlan } from "../approve/install-config.js";
import { exitCodeFor } from "./exit-codes.js";

// install --approve checks the config before any file is touched; null: it cannot (said why).
// The plan, or the exit code when there is none (2 for a usage mistake, 1 a broken config).
export async function planApprove(): Promise<ApprovePlan | number> {
  const [{ createDeps }, { planApproveInstall }, { toHookNotifyError }] = await Promise.all([
    import("../deps.js"),
    import("../approve/install-config.js"),
    import("../errors.js"),
  ]);
  try {
    return planApproveInstall(createDeps());
  } catch (error) {
    const known = toHookNotifyError(error);
    console.error(`hook-notify install: ${known.message}`);
    return exitCodeFor(known);
  }
}

// After the settings are written: the reply topic into the config, the key into the state folder.
// With --json these lines go to stderr: stdout holds only the JSON object.
export async function finishApprove(
  plan: ApprovePlan,
  dryRun: boolean,
  json: boolean,
): Promise<void> {
  const { applyApproveInstall, describeApproveInstall } =
    await import("../approve/install-config.js");
  const say = json ? console.error : console.log;
  const lines = dryRun ? describeApproveInstall(plan) : applyApproveInstall(plan);
  for (const line of lines) say(line);
  if (!dryRun) say("Next: hook-notify test --approve (answer the sample on your phone).");
}
