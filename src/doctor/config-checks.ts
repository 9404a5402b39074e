// Which config file applies and whether it is valid: each issue with its place.
import { loadConfig, type LoadedConfig } from "../config/load-config.js";
import { userConfigPath } from "../config/paths.js";
import type { Deps } from "../deps.js";
import { fail, ok, warn, type CheckResult } from "../check-result.js";

// The fix line names the file and the place in it: "Fix sinks.team.url in ~/.config/…".
function fixFor(issue: string, file: string): string {
  // An unset ${VAR}: the fix is in the agent's environment, not in the file.
  const unset = /environment variable (\w+) is not set/.exec(issue)?.[1];
  if (unset !== undefined)
    return `Export ${unset} where the agent runs (and where you run hook-notify), then run "hook-notify doctor" again.`;
  const rest = issue.startsWith(file)
    ? issue.slice(file.length).replace(/^(:\d+:\d+)?: /, "")
    : issue;
  const at = issue.startsWith(file) ? /^:(\d+):(\d+)/.exec(issue.slice(file.length)) : null;
  const place = /^([^\s:]+): /.exec(rest)?.[1];
  const line = at ? ` (line ${at[1] ?? ""}, column ${at[2] ?? ""})` : "";
  const where = place === undefined ? `${file}${line}` : `${place} in ${file}${line}`;
  return `Fix ${where}, then run "hook-notify doctor" again.`;
}

// The config as the hook would load it, plus one result per finding.
export function checkConfig(
  deps: Pick<Deps, "env" | "homedir" | "platform" | "cwd">,
  configPath: string | undefined,
): { loaded: LoadedConfig; results: CheckResult[] } {
  const loaded = loadConfig(deps, { configPath, projectDir: deps.cwd });
  const results: CheckResult[] = [];
  if (loaded.error) {
    const file = userConfigPath(deps, configPath);
    results.push(fail("config", loaded.error.message, fixFor("", file), { blocks: true }));
  } else if (loaded.path === undefined) {
    const path = userConfigPath(deps, configPath);
    results.push(
      ok("config", `no file at ${path}: the built-in default (desktop and sound) applies`),
    );
  } else if (loaded.issues.length === 0) {
    const project = loaded.projectPath ? ` + ${loaded.projectPath}` : "";
    results.push(ok("config", `${loaded.path}${project}`));
  }
  for (const [index, issue] of loaded.issues.entries()) {
    const file = issue.startsWith(`${loaded.projectPath}:`)
      ? (loaded.projectPath ?? "")
      : userConfigPath(deps, configPath);
    const detail = loaded.located[index] ?? issue;
    results.push(fail("config", detail, fixFor(issue, file), { blocks: true }));
  }
  if (!loaded.value.enabled) {
    results.push(
      warn("config", '"enabled": false: hook-notify is off', 'Remove "enabled": false.'),
    );
  }
  return { loaded, results };
}
