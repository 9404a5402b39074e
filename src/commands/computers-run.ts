// The work of `hook-notify computers`: one call to the service, one line per computer or result.
import { deadline } from "../abort.js";
import { loadConfig } from "../config/load-config.js";
import { createDeps } from "../deps.js";
import { toHookNotifyError } from "../errors.js";
import { scrub } from "../redact.js";
import { listComputers, retryInstallDeps } from "../service/client.js";
import { failedStepsOf } from "../service/watch/detect.js";
import type { Computer } from "../service/schemas.js";

const TIMEOUT_MS = 30_000;

// Exit code: 0 when the service accepted, 1 otherwise (the reason on stderr, key masked).
export async function runComputers(options: {
  configPath: string | undefined;
  action: "list" | "retry";
  id: string | undefined;
}): Promise<number> {
  const deps = createDeps();
  const loaded = loadConfig(deps, { configPath: options.configPath });
  const service = loaded.value.service;
  if (!service) {
    console.error(
      'hook-notify computers: no "service" in the config (see hook-notify watch --help).',
    );
    return 1;
  }
  if (options.action === "retry" && !options.id) {
    console.error(
      "hook-notify computers retry: give the computer's id, e.g. hook-notify computers retry comp-123",
    );
    return 1;
  }
  const timer = deadline(TIMEOUT_MS);
  const ctx = { service, env: deps.env, signal: timer.signal };
  try {
    if (options.action === "retry") {
      const computer = await retryInstallDeps(ctx, options.id ?? "");
      console.log(`Retrying install-deps on ${describe(computer)}`);
    } else {
      for (const computer of await listComputers(ctx)) console.log(describe(computer));
    }
    return 0;
  } catch (error) {
    const known = toHookNotifyError(error);
    console.error(`hook-notify computers: ${known.code}: ${scrub(known.message, loaded.secrets)}`);
    return 1;
  } finally {
    timer.clear();
  }
}

// "build-box (comp-123): error; install-deps failed: npm ci exited with code 1"
function describe(computer: Computer): string {
  const failed = failedStepsOf(computer)
    .map((step) => `${step.name} failed${step.error ? `: ${step.error}` : ""}`)
    .join("; ");
  const status = computer.status ?? "unknown";
  return `${computer.name ?? computer.id} (${computer.id}): ${status}${failed ? `; ${failed}` : ""}`;
}
