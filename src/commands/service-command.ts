// What every command that talks to the service shares: the config's `service` (or one line that
// names the real reason there is none), a deadline, a short Retry-After waited once, and the one
// catch that prints `hook-notify <name>: CODE: message` with the key masked.
import { deadline } from "../abort.js";
import { loadConfig } from "../config/load-config.js";
import type { Config, ServiceConfig } from "../core/config.js";
import type { Deps } from "../deps.js";
import { toHookNotifyError, type HookNotifyError } from "../errors.js";
import { scrub } from "../redact.js";
import type { ServiceContext } from "../service/http.js";
import { describeWait } from "../service/service-errors.js";
import { DEFAULT_TIMEOUT_SECONDS } from "./service-flags.js";
import { EXIT as COMMAND_EXIT } from "./exit-codes.js";

/** Where a command's output goes; the yargs handler passes the console, tests collect lines. */
export interface CommandIo {
  deps: Deps;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** The longest Retry-After a one-shot command waits out before its single second try. */
const MAX_WAIT_MS = 15_000;

/** Exit codes of the service commands (docs/service.md): every command's, and 3 the service refused. */
const EXIT = { ...COMMAND_EXIT, refused: 3 } as const;

// The console as a CommandIo (the commands' handlers).
export function consoleIo(deps: Deps): CommandIo {
  return {
    deps,
    out: (line) => {
      console.log(line);
    },
    err: (line) => {
      console.error(line);
    },
  };
}

/** The config's service, the secrets to mask, and the config (templates, sinks). */
export interface LoadedService {
  service: ServiceConfig;
  secrets: readonly string[];
  config: Config;
}

// The service of the config, or undefined after one line on stderr that says why there is none.
export function loadService(
  io: CommandIo,
  name: string,
  configPath: string | undefined,
): LoadedService | undefined {
  const loaded = loadConfig(io.deps, { configPath });
  const say = (line: string): void => {
    io.err(`hook-notify ${name}: ${scrub(line, loaded.secrets)}`);
  };
  if (loaded.error) say(loaded.error.message);
  const service = loaded.value.service;
  if (service) return { service, secrets: loaded.secrets, config: loaded.value };
  const problems = serviceProblems(loaded.issues);
  for (const problem of problems) say(problem);
  if (problems.length === 0)
    say(
      'no "service" in the config. Add "service": {"baseUrl": "https://…", "apiKey": "${FACTORY_API_KEY}"} (see hook-notify watch --help).',
    );
  return undefined;
}

// The config's problems inside "service" (an unset ${VAR}, a wrong type, an unknown key: the
// config's own wording already names the key it most likely meant).
export function serviceProblems(issues: readonly string[]): string[] {
  return issues.filter((issue) => /(^|: )service[.:]/.test(issue));
}

// The exit code for a failure: 2 a usage mistake (nothing was sent), 3 the service refused
// (it answered 4xx), 1 anything else (5xx, network, timeout, a broken answer, the config).
export function exitCodeOf(error: HookNotifyError): number {
  if (error.code === "USAGE") return EXIT.usage;
  const status = error.status ?? 0;
  if (status >= 400 && status < 500) return EXIT.refused;
  return EXIT.failure;
}

// A usage mistake found before anything is sent (exit 2); else the config's service, then
// `work` under runServiceWork. Returns the exit code (1 without a usable service).
export async function withService(
  io: CommandIo,
  name: string,
  options: {
    configPath?: string | undefined;
    timeoutSeconds?: number | undefined;
    mistake?: string | undefined;
  },
  work: (ctx: ServiceContext, loaded: LoadedService) => Promise<void>,
): Promise<number> {
  if (options.mistake) {
    io.err(`hook-notify ${name}: ${options.mistake}`);
    return EXIT.usage;
  }
  const loaded = loadService(io, name, options.configPath);
  if (!loaded) return EXIT.failure;
  return runServiceWork(io, name, loaded, (ctx) => work(ctx, loaded), options.timeoutSeconds);
}

// Runs `work` with a deadline; a 429 whose Retry-After is short is waited out and tried once
// more (said on stderr); any failure is one line. Returns the exit code.
export async function runServiceWork(
  io: CommandIo,
  name: string,
  loaded: LoadedService,
  work: (ctx: ServiceContext) => Promise<void>,
  timeoutSeconds: number | undefined = DEFAULT_TIMEOUT_SECONDS,
): Promise<number> {
  timeoutSeconds ??= DEFAULT_TIMEOUT_SECONDS;
  for (let attempt = 0; ; attempt++) {
    const timer = deadline(timeoutSeconds * 1000);
    try {
      await work({ service: loaded.service, env: io.deps.env, signal: timer.signal });
      return 0;
    } catch (error) {
      const known = toHookNotifyError(error);
      const wait = known.code === "SERVICE_RATE_LIMITED" ? known.retryAfterMs : undefined;
      const message = scrub(known.message, loaded.secrets);
      if (attempt === 0 && wait !== undefined && wait <= MAX_WAIT_MS) {
        io.err(`hook-notify ${name}: rate limited; trying again in ${describeWait(wait)}.`);
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      const advice =
        known.code === "SERVICE_RATE_LIMITED"
          ? ` Not retried now: run it again ${wait === undefined ? "later" : `in ${describeWait(wait)}`}.`
          : "";
      const waited =
        known.code === "SERVICE_TIMEOUT"
          ? ` Waited ${String(timeoutSeconds)} s (--timeout to change it).`
          : "";
      io.err(`hook-notify ${name}: ${known.code}: ${message}${advice}${waited}`);
      return exitCodeOf(known);
    } finally {
      timer.clear();
    }
  }
}
