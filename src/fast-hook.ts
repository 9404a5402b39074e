// The hook's fast path (issue #19): with a live worker that offers to run events (its stamp,
// outbox/fast.json, still true for this hook), the hook reads the event, writes it durably to
// outbox/events/ with the secrets the config knows masked, knocks on the worker's FIFO and exits
// 0. It loads no zod, no config schema, no sink and no socket: a few fs calls past node's start.
// With no stamp that holds (the first hook ever, the first after an upgrade, a config edit or a
// ${VAR} change; issue #41) the same, with the hook's own mask of the config's secrets
// (link/config-mask.ts), and a worker started when none answers the knock. Everything else (a
// --dry-run, --wait, another command, a live worker of another build or other ${VAR} values,
// Windows) goes to dist/cli.cjs, the full pipeline, with the event already read handed over.
import type { Handover } from "./commands/run.js";
import { hookArgs, isHookInvocation } from "./commands/hook-argv.js";
// For bin/hook-notify.cjs: which bundle a run that is not handed over loads (src/hook-entry.ts).
export { isHookInvocation };
import { userConfigPath } from "./config/paths.js";
import { buildId } from "./build-id.js";
import { fdInput, type FdInput } from "./link/fd-input.js";
import { parses } from "./whole-json.js";
import { textInput } from "./input-source.js";
import { knock, takeBack, writeEvent, type EventEntry } from "./link/inbox.js";
import { carriedEnv } from "./link/hook-env.js";
import { absoluteFrom } from "./path-join.js";
import {
  envPrint,
  maskOf,
  maskText,
  randomBases,
  readStamp,
  stampHolds,
  type FastStamp,
} from "./link/stamp.js";
import { configSecrets } from "./link/config-mask.js";
import { fnv1a64 } from "./fnv1a.js";
import { existsSync } from "node:fs";
import { sep as SEP } from "node:path";
import { outboxPaths } from "./outbox/paths.js";
import { startDetached } from "./link/start-detached.js";
import { startClaimFile, startPending } from "./link/start-claim.js";
import { fastPathOn } from "./link/rhythm.js";
import { hookBudget, inputWaitMs } from "./pipeline/deadline.js";
import { readInput } from "./pipeline/read-input.js";
import { CONFIG_NOTICE_KEEP_SECONDS, MAX_EVENT_BYTES } from "./core/defaults.js";
import { endHook, type HookCode } from "./exit.js";
import { newNotificationId } from "./core/notification-id.js";

/** What is read at once; a larger event is read by a callback, and handed over all the same. */
const MAX_FAST_BYTES = 64 * 1024;

type FullPath = (argv: string[], handover: Handover) => Promise<void>;

let handed = false;

/** True once this run wrote its event for the worker: it ran (so V8 compiled) the whole fast
 * path, which is what bin/hook-notify.cjs keeps in dist/hook.cjs's code cache. */
export function handedOver(): boolean {
  return handed;
}

// bin/hook-notify.cjs calls this for every command line; `full` loads dist/cli.cjs on demand.
// No promise on the common path (a first await costs the run ~2 M instructions): the event is read
// at once, or by one callback, and the run ends in process.exit.
export function main(argv: string[], full: () => { main: FullPath }): Promise<void> | undefined {
  const started = Date.now();
  const env = process.env;
  if (!fastPathOn(env, process.platform) || !isHookInvocation(argv)) {
    return full().main(argv, { started });
  }
  const args = hookArgs(argv);
  const offered =
    !args.dryRun && !args.wait && args.unknownFlags.length === 0 && readOffer(env, args.config);
  if (!offered) return full().main(argv, { started });
  const handOver = (raw: string) => handOverEvent(raw, { argv, args, started, offered, full });
  if (args.payload !== undefined) return handOver(args.payload);
  const stdin = fdInput(0);
  if (stdin === undefined || stdin.isTTY) return full().main(argv, { started });
  const complete = stdin.readWaiting(MAX_FAST_BYTES);
  if (complete !== undefined) return handOver(complete);
  const { deadline } = hookBudget(started, args.timeout);
  stdin.readOnce(inputWaitMs(deadline - Date.now()), (whole) => {
    // The rest within what is left of the wait (the full path still needs its share to report).
    const rest = () => readRest(stdin, inputWaitMs(deadline - Date.now()));
    void (whole === undefined ? rest() : Promise.resolve(whole)).then(
      (raw) => handOver(raw),
      () => {
        // A thread-pool read that never returns would hold the exit forever: once the full path
        // has logged and is exiting, the process ends by a signal, inside its --timeout.
        process.once("exit", () => {
          if (stdin.stuck()) process.kill(process.pid, "SIGKILL");
        });
        // The full path reads again (what was read, then the rest) and reports as it always did.
        return full().main(argv, { started, input: stdin.replay() });
      },
    );
  });
  return undefined;
}

// An event that came in pieces, or slowly: read-input.ts's rules (size cap, deadline, a whole
// JSON object is the whole event).
function readRest(stdin: FdInput, waitMs: number): Promise<string> {
  return readInput(stdin, { maxBytes: MAX_EVENT_BYTES, idleMs: waitMs, totalMs: waitMs });
}

interface Run {
  argv: string[];
  args: ReturnType<typeof hookArgs>;
  started: number;
  offered: NonNullable<ReturnType<typeof readOffer>>;
  full: () => { main: FullPath };
}

// The event, masked, durable in events/, then the knock (or a worker started); the full path if
// anything stands in the way.
function handOverEvent(raw: string, run: Run): Promise<void> | undefined {
  const { argv, args, started, offered, full } = run;
  const plain = raw.includes("\\u") ? unescaped(raw) : raw;
  const masked = plain.length <= MAX_EVENT_BYTES ? offered.mask(plain) : undefined;
  // One JSON object; anything else is the pipeline's to report (exit 1, one line).
  if (masked === undefined || !masked.trimStart().startsWith("{") || !parses(masked)) {
    return full().main(argv, handedBack(raw, started));
  }
  const { timeout, client, event } = args;
  const cwd = process.cwd();
  // Paths leave the hook absolute: the worker reads them from its own folder.
  const config = absoluteFrom(cwd, args.config);
  const entry: EventEntry = {
    version: 1,
    build: buildId(),
    args: { config, timeout, client, event },
    payload: masked,
    id: newNotificationId(),
    receivedAt: started,
    cwd,
    ppid: process.ppid,
    env: carriedEnv(process.env, cwd),
  };
  let name: string;
  try {
    name = writeEvent(offered.paths, entry);
  } catch {
    return full().main(argv, handedBack(raw, started));
  }
  handed = true;
  const code = offered.afterWrite();
  if (offered.fifo !== undefined && knock(offered.fifo)) endHook(code);
  // Nobody read the knock (the worker is gone or leaving: its last look may be over), or there is
  // no worker at all: a new one takes the event. Only if none can be started does the hook take it
  // back and run it itself.
  // A worker on its way (another hook's start claim) looks after this event was written.
  const claim = startClaimFile(offered.paths);
  if (startPending(claim) || startDetached(process.env, cwd, undefined, claim)) endHook(code);
  if (takeBack(offered.paths, name)) return full().main(argv, handedBack(raw, started));
  endHook(code);
}

// A secret written with JSON's \u escapes is the same secret: the event is written back without
// them (JSON.stringify escapes only what JSON must), so the mask sees the characters themselves.
function unescaped(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw));
  } catch {
    return raw;
  }
}

// What the full path gets when the event stays with the hook: the event as read, and the start.
function handedBack(raw: string, started: number): Handover {
  return { started, input: textInput(raw) };
}

// How this hook hands its event over: through the live worker's offer when its stamp holds for
// this hook's --config and environment; otherwise (no stamp: the first hook ever, or after an
// upgrade; a stale one: the config or a ${VAR} changed) with the hook's own mask of the config's
// secrets (link/config-mask.ts), to a live worker of this build (asked to write its stamp again)
// or to one it starts. Undefined (the full path) when a live worker would run the event
// differently than this hook (another build, or other values for the config's ${VAR}s), or when
// the config file cannot be read.
function readOffer(env: NodeJS.ProcessEnv, configFlag: string | undefined) {
  // os.homedir() is $HOME where it is set (POSIX); node:os costs ~1 M instructions to load.
  const home = env.HOME || process.getBuiltinModule("node:os").homedir();
  const deps = { env, homedir: home, platform: process.platform };
  const paths = outboxPaths(deps);
  const stamp = readStamp(paths.stamp);
  // Absolute, as the worker's offer names it: a relative one means this hook's folder.
  const configPath = absoluteFrom(process.cwd(), userConfigPath(deps, configFlag));
  const build = buildId();
  if (stamp && stampHolds(stamp, { build, configPath, env })) {
    return {
      paths,
      fifo: stamp.fifo,
      mask: (text: string) => maskText(text, stamp.mask),
      afterWrite: (): HookCode => 0,
    };
  }
  // A stale offer: the knock asks a live worker to look at this config (again). It also says
  // whether one lives.
  const live = stamp !== undefined && knock(stamp.fifo, `s${configPath}\n`);
  if (live && !(stamp.build === build && sameValues(stamp, env))) return undefined;
  const own = configSecrets(configPath, (configFlag ?? env.HOOK_NOTIFY_CONFIG) !== undefined, env);
  // A config file that cannot be read (a FIFO, too large, a --config that is not there): rare, and
  // the pipeline's run says why, in its words.
  if (own.broken !== undefined && own.broken.text === undefined) return undefined;
  const mask = own.pieces.length > 0 ? maskOf(own.pieces, randomBases(Math.random)) : undefined;
  return {
    paths,
    fifo: live ? stamp.fifo : undefined,
    // The stale stamp's mask too: it holds the secrets of the project files runs have merged.
    mask: (text: string) => {
      const masked = mask === undefined ? text : maskText(text, mask);
      return stamp === undefined ? masked : maskText(masked, stamp.mask);
    },
    // A config that does not parse: the worker's run announces it (a banner, the log, doctor)
    // and delivers with the built-in default; the hook says it on stderr too, once per version
    // of the file (config-notice.ts's marker), and exits 1 as the pipeline's run would.
    afterWrite(): HookCode {
      const broken = own.broken;
      if (broken?.text === undefined) return 0;
      sayBroken(paths.root, broken.text, `${broken.path}: ${broken.where ?? "invalid JSON"}`);
      return 1;
    },
  };
}

// The live worker expands the config's ${VAR}s with the values this hook sees.
function sameValues(stamp: FastStamp, env: NodeJS.ProcessEnv): boolean {
  return (
    stamp.env.names.length === 0 ||
    envPrint(stamp.env.names, stamp.env.salt, env) === stamp.env.print
  );
}

// One line on stderr while the config's problem has not been announced (the worker's run claims
// the marker and shows the banner). Never stdout.
function sayBroken(outboxRoot: string, text: string, problem: string): void {
  const state = outboxRoot.slice(0, outboxRoot.lastIndexOf(SEP));
  const marker = `${state}${SEP}seen${SEP}config-${fnv1a64(text)}-${String(CONFIG_NOTICE_KEEP_SECONDS)}`;
  if (existsSync(marker)) return;
  process.stderr.write(
    `hook-notify: ${problem}. Until it is fixed, the built-in default (desktop and sound) delivers instead. Fix the file, then check it: hook-notify doctor\n`,
  );
}
