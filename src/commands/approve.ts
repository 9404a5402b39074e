// `hook-notify approve`: the PermissionRequest hook of Claude Code (and of Codex, --client codex).
// Its own contract: it prints only a decision a person made on the phone, as the JSON the client
// expects, and exits 0. On a timeout, a network failure, an unverifiable answer or anything
// unexpected it prints nothing and exits 0, so the client shows its own dialog as if hook-notify
// were not there.
import { writeSync } from "node:fs";
import { parseArgs } from "node:util";
import type { CommandModule } from "yargs";
import type { ApproveRun } from "../approve/run-approve.js";
import { approverFor, approvingClients } from "../clients/index.js";
import { endHook } from "../exit.js";

interface ApproveArgs {
  config: string | undefined;
  /** The client whose request arrives (install writes it); checked by the run, never here. */
  client?: string | undefined;
  timeout: number | undefined;
}

const HARD_MARGIN_MS = 3_000;

// Lenient like the hook: a malformed flag must not turn into an exit code or a usage message.
export function parseApproveArgs(argv: readonly string[]): ApproveArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      config: { type: "string", short: "c" },
      client: { type: "string" },
      timeout: { type: "string" },
    },
    strict: false,
    allowPositionals: true,
  });
  const timeout = Number(values.timeout);
  return {
    config: typeof values.config === "string" ? values.config : undefined,
    client: typeof values.client === "string" ? values.client : undefined,
    timeout: Number.isFinite(timeout) && timeout > 0 ? timeout : undefined,
  };
}

// The whole command: one round trip, one log line, at most one write to stdout, exit 0.
export async function runApproveCommand(args: ApproveArgs): Promise<void> {
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
  let logged = false;
  const finish = (): void => {
    if (logged) return;
    logged = true;
    appendJournal(logPath(deps), run.record, run.secrets);
  };
  installSafetyNet(run, finish, args.timeout);
  await runApprove(
    deps,
    {
      configPath: args.config,
      client: args.client,
      timeout: args.timeout,
      pid: process.ppid,
      startedAt: performance.timeOrigin,
    },
    run,
  );
  finish();
  if (run.output !== undefined) writeSync(1, `${run.output}\n`);
  endHook(0);
}

// Whatever goes wrong, nothing reaches stdout and the process exits 0 before the client's timeout.
function installSafetyNet(run: ApproveRun, finish: () => void, timeout: number | undefined): void {
  const bail = (code: "INTERNAL" | "HOOK_DEADLINE"): void => {
    try {
      run.output = undefined;
      run.record.error ??= { code, message: `approve ended early (${code}); the terminal asks` };
      finish();
    } finally {
      endHook(0);
    }
  };
  process.on("uncaughtException", () => {
    bail("INTERNAL");
  });
  process.on("unhandledRejection", () => {
    bail("INTERNAL");
  });
  if (timeout !== undefined) {
    setTimeout(
      () => {
        bail("HOOK_DEADLINE");
      },
      timeout * 1000 - HARD_MARGIN_MS,
    ).unref();
  }
}

// For --help only: cli.ts runs approve without yargs, so a usage error can never print or exit 1.
export const approveCommand: CommandModule<object, ApproveArgs> = {
  command: "approve",
  describe:
    "PermissionRequest hook of Claude Code and Codex: ask the phone (ntfy or Telegram Allow/Deny) when you are away; prints only your answer",
  builder: (yargs) =>
    yargs
      .option("config", { type: "string", describe: "Config file (default: the user config)" })
      .option("client", {
        type: "string",
        describe: `The client whose request this is: ${approvingClients()
          .map((adapter) => adapter.id)
          .join(" or ")} (install writes it; default ${approverFor(undefined)?.id ?? ""})`,
      })
      .option("timeout", {
        type: "number",
        describe: "Seconds the client gives this hook entry (install writes it)",
      })
      .example("$0 install --approve", "set it up (Claude Code and Codex)")
      .example("$0 test --approve", "send a sample request and wait for your answer"),
  handler: async (args) => {
    await runApproveCommand({ config: args.config, client: args.client, timeout: args.timeout });
  },
};
