// The computers resource beyond what the watch reads (research/service-api.md, "Computers"):
// the list by host, create and update, with the documented limits checked before sending.
import { HookNotifyError } from "../errors.js";
import { callService, type ServiceContext } from "./http.js";
import { idSegment } from "./service-ids.js";
import { computerListSchema, computerSchema, type Computer } from "./schemas.js";

/** The body of POST /computers. */
export interface NewComputer {
  name: string;
  provider?: "byom" | "hosted" | undefined;
  hostId?: string | undefined;
  remoteUser?: string | undefined;
  repos?: string[] | undefined;
  autoInstallDeps?: boolean | undefined;
  serviceAccountId?: string | undefined;
  source?: { kind: string } | undefined;
}

/** The body of PATCH /computers/{id}: every field optional. */
export interface ComputerChange {
  name?: string | undefined;
  hostId?: string | undefined;
  remoteUser?: string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// GET /api/v0/computers, optionally only those of one host, with or without provisioning steps.
export async function listComputersOf(
  ctx: ServiceContext,
  query: { hostId?: string | undefined; steps?: boolean } = {},
): Promise<Computer[]> {
  if (query.hostId !== undefined) checkHost(query.hostId);
  const answer = await callService(
    ctx,
    {
      path: "/api/v0/computers",
      query: { hostId: query.hostId, includeProvisioningSteps: String(query.steps ?? true) },
    },
    computerListSchema,
  );
  return answer.computers;
}

// POST /api/v0/computers (201).
export function createComputer(ctx: ServiceContext, body: NewComputer): Promise<Computer> {
  checkChange(body);
  if (body.repos && body.repos.length > 20) throw usage("at most 20 --repo.");
  for (const repo of body.repos ?? []) {
    if (repo.length > 2048 || !URL.canParse(repo))
      throw usage(`--repo ${repo.slice(0, 60)}: a URL of at most 2048 characters.`);
  }
  if (body.serviceAccountId !== undefined && body.serviceAccountId.length < 1)
    throw usage("--service-account must not be empty.");
  const sent = strip({ ...body });
  return callService(
    ctx,
    { method: "POST", path: "/api/v0/computers", body: sent },
    computerSchema,
  );
}

// PATCH /api/v0/computers/{id}: name, host, remote user.
export async function updateComputer(
  ctx: ServiceContext,
  computerId: string,
  change: ComputerChange,
): Promise<Computer> {
  if (Object.values(change).every((v) => v === undefined))
    throw usage("nothing to change: give --name, --host or --remote-user.");
  checkChange(change);
  const path = `/api/v0/computers/${idSegment(computerId, "computer")}`;
  return callService(ctx, { method: "PATCH", path, body: strip({ ...change }) }, computerSchema);
}

function checkChange(change: ComputerChange): void {
  for (const [flag, value] of [
    ["--name", change.name],
    ["--remote-user", change.remoteUser],
  ] as const) {
    if (value !== undefined && (value.length < 1 || value.length > 63))
      throw usage(`${flag} must be 1-63 characters.`);
  }
  if (change.hostId !== undefined) checkHost(change.hostId);
}

function checkHost(hostId: string): void {
  if (!UUID.test(hostId)) throw usage(`--host ${hostId.slice(0, 40)}: the host id is a UUID.`);
}

function strip<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function usage(message: string): HookNotifyError {
  return new HookNotifyError("USAGE", message, { retryable: false });
}
