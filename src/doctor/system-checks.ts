// Checks of the machine itself: node, SSH or a container, the log.
import { existsSync } from "node:fs";
import { logPath } from "../config/paths.js";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import { headlessContainerOf, remoteSessionOf } from "../pipeline/policy.js";
import { fail, ok, warn, type CheckResult } from "../check-result.js";
import { isLocalSink } from "../sinks/index.js";

type MachineDeps = Pick<Deps, "env" | "platform" | "homedir" | "arch" | "osRelease">;

const MIN_NODE = [20, 19] as const;

// hook-notify declares engines node >=20.19; older versions miss APIs it uses.
export function checkNode(version: string): CheckResult {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const good = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return good
    ? ok("node", `Node.js ${version}`)
    : fail("node", `Node.js ${version} is older than 20.19`, "Install Node.js 20.19 or newer.", {
        blocks: true,
      });
}

// Over SSH or in a container without a display, desktop and sound would fire where nobody is:
// the hook skips them (the "ssh" and "container" rules) unless localSinksOverSsh keeps them.
export function checkSsh(
  deps: Pick<Deps, "env" | "platform">,
  entries: readonly SinkEntry[],
  keepAll: boolean,
): CheckResult | undefined {
  const ssh = remoteSessionOf(deps.env);
  const why = ssh ?? headlessContainerOf(deps.env, deps.platform, existsSync);
  if (!why) return undefined;
  const name = ssh ? "ssh" : "container";
  const local = entries.filter((e) => isLocalSink(e.type));
  if (local.length === 0) return ok(name, `${why}; no desktop or sound sink configured`);
  const kept = local.filter((e) => e.localSinksOverSsh ?? keepAll).map((e) => e.name);
  const what =
    kept.length === local.length
      ? "desktop and sound are kept (localSinksOverSsh) and fire on this machine"
      : "desktop and sound are skipped here";
  return warn(
    name,
    `${why}: ${what}`,
    "Add a chat (ntfy, Slack, …) or email sink to your config file, beside the sinks you have, to be notified where you are (hook-notify help init lists them)",
  );
}

// Where the run log is, for "what happened at 3 am?".
export function checkLog(deps: MachineDeps): CheckResult {
  const file = logPath(deps);
  return ok("log", existsSync(file) ? file : `${file} (not written yet)`);
}
