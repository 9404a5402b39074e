// vitest globalSetup: outside CI, the tests that drive real programs (hook-notify's D-Bus client
// and node-notifier's notify-send against a real notification daemon, aplay and sox's play, tmux,
// util-linux script) are skipped where those programs are missing. Say so once, before the run, with what to install; in CI (CI=true) the
// desktop and sound tests fail instead (their prerequisite tests).
import { spawnSync } from "node:child_process";
import { findProgram } from "../../src/sinks/find-program.js";
import { notificationDaemonTools } from "./notification-daemon.js";

interface Group {
  what: string;
  missing: string[];
  install: string;
}

// Each group of real-program tests and what it lacks on this machine.
function groups(env: NodeJS.ProcessEnv): Group[] {
  const has = (program: string) => findProgram(program, env, "linux") !== undefined;
  const runs = (program: string, arg: string) => spawnSync(program, [arg], { env }).status === 0;
  return [
    {
      what: "desktop with a real notification daemon",
      missing: notificationDaemonTools(env).missing,
      install: "dbus libnotify-bin python3-dbusmock",
    },
    {
      what: "sound with real players",
      missing: ["aplay", "play"].filter((program) => !has(program)),
      install: "alsa-utils sox",
    },
    {
      what: "presence with a real tmux",
      missing: runs("tmux", "-V") ? [] : ["tmux"],
      install: "tmux",
    },
    {
      what: "prompts and colours on a real terminal",
      missing: runs("script", "--version") ? [] : ["script"],
      install: "bsdutils",
    },
  ].filter((group) => group.missing.length > 0);
}

// The notice for this machine, or undefined when nothing is skipped.
export function skippedNotice(env: NodeJS.ProcessEnv): string | undefined {
  const skipped = groups(env);
  if (skipped.length === 0) return undefined;
  const lines = skipped.map((g) => `  - ${g.what}: missing ${g.missing.join(", ")}`);
  const install = skipped.map((g) => g.install).join(" ");
  return [
    "hook-notify: tests that drive real programs are skipped on this machine:",
    ...lines,
    `  Install them (apt-get install ${install}) or run .ci/run to run them too.`,
    "",
  ].join("\n");
}

// Once per run (vitest calls it for each project).
export default function setup(): void {
  if (process.platform !== "linux" || process.env.CI === "true") return;
  if (process.env.HOOK_NOTIFY_TEST_NOTICE === "shown") return;
  process.env.HOOK_NOTIFY_TEST_NOTICE = "shown";
  const notice = skippedNotice(process.env);
  if (notice !== undefined) process.stderr.write(notice);
}
