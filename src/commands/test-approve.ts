// `hook-notify test --approve`: one sample permission request to the phone, whatever the presence;
// prints the verified answer and the exact JSON Claude Code would receive. Exit 1 without one.
import { basename } from "node:path";
import type { ApproveRun } from "../approve/run-approve.js";
import { scrub } from "../redact.js";

// Runs the round trip with the real terminal; returns the exit code.
export async function runApproveTest(configPath: string | undefined): Promise<number> {
  const [{ createDeps }, { runApprove }, { startApproveRecord }, { appendJournal }, { logPath }] =
    await Promise.all([
      import("../deps.js"),
      import("../approve/run-approve.js"),
      import("../approve/record.js"),
      import("../journal/append.js"),
      import("../config/paths.js"),
    ]);
  const deps = createDeps();
  const run: ApproveRun = { record: startApproveRecord(deps.now()), secrets: [] };
  const sample = {
    toolName: "Bash",
    toolInput: { command: "echo 'hello from hook-notify test --approve'" },
    project: basename(deps.cwd),
  };
  await runApprove(
    deps,
    {
      configPath,
      sample,
      startedAt: performance.timeOrigin,
      onSent: (setup, seconds) => {
        console.log(
          `Sent a sample permission request through ${setup.sinkName} (${setup.service}). Press Allow or Deny on your phone within ${seconds} s…`,
        );
      },
    },
    run,
  );
  appendJournal(logPath(deps), run.record, run.secrets);
  const { approval, error } = run.record;
  if (run.output !== undefined) {
    console.log(
      `Verified answer: ${approval.result} from the phone at ${approval.answeredAt ?? ""}.`,
    );
    console.log(`Claude Code would receive: ${run.output}`);
    return 0;
  }
  const why = error ? scrub(error.message, run.secrets) : `no answer (${approval.fallback ?? "?"})`;
  console.error(`hook-notify: no verified answer: ${why}`);
  if (approval.rejected.length > 0) {
    const reasons = approval.rejected.map((r) => r.reason).join(", ");
    console.error(`hook-notify: ignored on the reply topic: ${reasons}`);
  }
  return 1;
}
