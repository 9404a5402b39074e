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
import { failedStepsOf } from "../service/watch/detect.js";
import { loadService, runServiceWork, type CommandIo } from "./service-command.js";
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
  fields: Omit<NewComputer, "name" | "hostId"> & { name?: string | undefined };
}

// Exit code: 0 when the service accepted, 1 otherwise (the reason on stderr, key masked).
export async function runComputers(io: CommandIo, options: ComputersRun): Promise<number> {
  const name = `computers ${options.action}`;
  if ((options.action === "retry" || options.action === "update") && !options.id) {
    io.err(`hook-notify ${name}: give the computer's id, e.g. hook-notify ${name} comp-123`);
    return 1;
  }
  const loaded = loadService(io, name, options.configPath);
  if (!loaded) return 1;
  return runServiceWork(io, name, loaded, async (ctx) => {
    const result = await act(ctx, options);
    if (options.json) io.out(JSON.stringify(result, null, 2));
    else if (Array.isArray(result)) for (const computer of result) io.out(describe(computer));
    else
      io.out(
        `${options.action === "retry" ? "Retrying install-deps on" : "Computer"} ${describe(result)}`,
      );
  });
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
