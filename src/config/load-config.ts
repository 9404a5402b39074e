import { join } from "node:path";
import type { Deps } from "../deps.js";
import type { HookNotifyError } from "../errors.js";
import { readConfigFile } from "./read-config-file.js";
import { mergeProjectConfig } from "./merge-project.js";
import { PROJECT_CONFIG_NAME, userConfigPath } from "./paths.js";
import { validateConfig } from "./validate-config.js";
import { openMemoSession } from "./parse-memo-file.js";
import { locateKey } from "./locate-key.js";
import { fnv1a64 } from "../fnv1a.js";
import { defaultConfig } from "./default-config.js";
import { type Config } from "../core/config.js";

export interface LoadedConfig {
  value: Config;
  /** Problems found; the entries they concern are left out of value. */
  issues: string[];
  /** The same problems, each as "file:line:column: …" where the place is found in the file. */
  located: string[];
  /** The user config file, when one was read. */
  path?: string | undefined;
  projectPath?: string | undefined;
  /** Values to mask in every log line and printed message. */
  secrets: string[];
  /** Sinks left out because a ${VAR} they need is not set in this environment (name → variables). */
  unresolved: Record<string, string[]>;
  /** Set when a config file could not be used at all (the built-in default then applies). */
  error?: HookNotifyError | undefined;
  /** A hash of the user config file's text (when one was read): its problems are announced
   * once per version of the file (config-notice.ts). */
  hash?: string | undefined;
}

// Reads the user's config (or the built-in default) and merges the project's file over it. The
// worker keeps what zod made of the user's file (parse-memo.ts): its next start, cold, reads the
// same file without building zod's schemas before its first banner.
export function loadConfig(
  deps: Pick<Deps, "env" | "homedir" | "platform" | "worker">,
  options: { configPath?: string | undefined; projectDir?: string | undefined },
): LoadedConfig {
  const explicit = options.configPath ?? deps.env.HOOK_NOTIFY_CONFIG;
  const path = userConfigPath(deps, options.configPath);
  const user = readConfigFile(path, !!explicit);
  // No file (or a file holding `null`): the built-in default, already validated.
  const base =
    user.json === undefined || user.json === null ? defaultConfig() : validated(user.json, deps);
  const loaded: LoadedConfig = {
    value: base.value,
    issues: base.issues.map((issue) => `${path}: ${issue}`),
    located: base.issues.map((issue) => placed(path, user.text, issue)),
    path: user.json === undefined ? undefined : path,
    hash: user.text === undefined ? undefined : fnv1a64(user.text),
    secrets: base.secrets,
    unresolved: { ...base.unresolved },
    error: user.error,
  };
  if (!options.projectDir) return loaded;
  const projectPath = join(options.projectDir, PROJECT_CONFIG_NAME);
  const project = readConfigFile(projectPath, false, "The project file was ignored.");
  if (project.error) {
    loaded.issues.push(project.error.message);
    loaded.located.push(project.error.message);
  }
  if (project.json === undefined) return loaded;
  const merged = mergeProjectConfig(base.value, project.json, deps.env);
  loaded.value = merged.value;
  loaded.projectPath = projectPath;
  loaded.issues.push(...merged.issues.map((issue) => `${projectPath}: ${issue}`));
  loaded.located.push(...merged.issues.map((issue) => placed(projectPath, project.text, issue)));
  loaded.secrets.push(...merged.secrets);
  Object.assign(loaded.unresolved, merged.unresolved);
  return loaded;
}

function validated(
  json: unknown,
  deps: Pick<Deps, "env" | "homedir" | "platform" | "worker">,
): ReturnType<typeof validateConfig> {
  if (deps.worker !== true) return validateConfig(json, deps.env);
  const book = openMemoSession(deps);
  const result = validateConfig(json, deps.env, book);
  book.save();
  return result;
}

// "config.json:12:7: sinks.team.url: …": the file, and where in it the key stands when it is found.
function placed(file: string, text: string | undefined, issue: string): string {
  const place = /^([^\s:]+): /.exec(issue)?.[1];
  const at = place === undefined || text === undefined ? undefined : locateKey(text, place);
  return at === undefined ? `${file}: ${issue}` : `${file}:${at}: ${issue}`;
}
