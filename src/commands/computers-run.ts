// The work of `hook-notify computers`: one call to the service, a line per computer or result
// for people, JSON with --json.
import { HookNotifyError } from "../errors.js";
import { retryInstallDeps } from "../service/client.js";
import {
  createComputer,
  listComputersOf,
  updateComputer,
  type NewComputer,
} from "../service/computer-api.js";
import type { ServiceContext } from "../service/http.js";
import type { Computer } from "../service/schemas.js";
import { failedStepsOf } from "../service/watch/detect-computers.js";
import { withService, type CommandIo } from "./service-command.js";
import { cell } from "./cells.js";

/** What `hook-notify computers` does. */
export type ComputersAction = "list" | "create" | "update" | "retry";

/** The parsed command line of `hook-notify computers`. */
export interface ComputersRun {
  configPath?: string | undefined;
  action: ComputersAction;
  id?: string | undefined;
  json: boolean;
  host?: string | undefined;
  timeoutSeconds?: number | undefined;
  fields: Omit<NewComputer, "name" | "hostId"> & { name?: string | undefined };
}

/** The flags only create takes (the update body is name, hostId and remoteUser). */
const CREATE_ONLY = {
  provider: "--provider",
  repos: "--repo",
  autoInstallDeps: "--auto-install-deps",
  serviceAccountId: "--service-account",
  source: "--source",
} as const;

// Exit code: 0 done, 2 a usage mistake, 3 the service refused, 1 another failure.
export async function runComputers(io: CommandIo, options: ComputersRun): Promise<number> {
  const name = `computers ${options.action}`;
  return withService(io, name, { ...options, mistake: mistakeOf(options) }, async (ctx) => {
    const result = await act(ctx, options);
    if (options.json) io.out(JSON.stringify(result, null, 2));
    else if (Array.isArray(result) && result.length === 0)
      io.err(
        `hook-notify ${name}: no computers${options.host ? ` on host ${cell(options.host)}` : ""}.`,
      );
    else if (Array.isArray(result)) for (const computer of result) io.out(describe(computer));
    else
      io.out(
        `${options.action === "retry" ? "Retrying install-deps on" : "Computer"} ${describe(result)}`,
      );
  });
}

// A flag this action would drop, or a missing id; undefined when the command line is whole.
function mistakeOf(o: ComputersRun): string | undefined {
  const name = `computers ${o.action}`;
  if ((o.action === "retry" || o.action === "update") && !o.id)
    return `give the computer's id, e.g. hook-notify ${name} comp-123`;
  if (o.action !== "create") {
    const given = Object.entries(CREATE_ONLY)
      .filter(([field]) => o.fields[field as keyof typeof CREATE_ONLY] !== undefined)
      .map(([, flag]) => flag);
    if (given.length > 0)
      return `${given.join(", ")}: only for create (the service cannot change ${given.length > 1 ? "them" : "it"} later).`;
  }
  if (
    (o.action === "list" || o.action === "retry") &&
    (o.fields.name ?? o.fields.remoteUser) !== undefined
  )
    return `--name and --remote-user are for create and update.`;
  if (
    o.action === "update" &&
    o.fields.name === undefined &&
    o.fields.remoteUser === undefined &&
    o.host === undefined
  )
    return "nothing to change: give --name, --remote-user or --host.";
  return undefined;
}

function act(ctx: ServiceContext, o: ComputersRun): Promise<Computer | Computer[]> {
  const id = o.id ?? "";
  switch (o.action) {
    case "list":
      return listComputersOf(ctx, { hostId: o.host });
    case "retry":
      return retryInstallDeps(ctx, id);
    case "update":
      return updateComputer(ctx, id, {
        name: o.fields.name,
        hostId: o.host,
        remoteUser: o.fields.remoteUser,
      });
    case "create":
      if (!o.fields.name) throw new HookNotifyError("USAGE", "give the new computer a --name.");
      return createComputer(ctx, { ...o.fields, name: o.fields.name, hostId: o.host });
  }
}

// "build-box (comp-123): error; install-deps failed: npm ci exited with code 1"
function describe(computer: Computer): string {
  const failed = failedStepsOf(computer)
    .map((step) => `${cell(step.name)} failed${step.error ? `: ${cell(step.error, 200)}` : ""}`)
    .join("; ");
  const status = computer.status ?? "unknown";
  return `${cell(computer.name ?? computer.id)} (${cell(computer.id)}): ${cell(status)}${failed ? `; ${failed}` : ""}`;
}
