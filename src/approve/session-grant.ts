// "Allow for this session": the request's own `permission_suggestions` (what Claude Code's dialog
// offers as "don't ask again"), kept to the kinds a person can read in words, and always scoped to
// this session. Claude Code 2.1.332's hook output schema takes them back as the allow decision's
// `updatedPermissions`, entries of {type addRules|replaceRules|removeRules|setMode|addDirectories|
// removeDirectories, destination userSettings|projectSettings|localSettings|session|cliArg};
// a phone answer never writes a settings file, so every entry goes back with destination
// "session". Only grants are kept: addRules with behavior "allow", addDirectories, and setMode
// "acceptEdits"; anything else (removing rules, other modes) is dropped, never sent unseen.
import { inertText } from "../shown-text.js";

/** One permission update as Claude Code's PermissionRequest output takes it. */
export type SessionUpdate =
  | {
      type: "addRules";
      rules: { toolName: string; ruleContent?: string }[];
      behavior: "allow";
      destination: "session";
    }
  | { type: "addDirectories"; directories: string[]; destination: "session" }
  | { type: "setMode"; mode: "acceptEdits"; destination: "session" };

/** What "Allow for this session" sends, and how the phone says it. */
export interface SessionGrant {
  updates: SessionUpdate[];
  /** "allow `npm test …` commands", inert, one line. */
  words: string;
}

/** Longer than this (bytes of UTF-8), the phone could not show the grant whole beside the
 * request (summary.ts keeps that within 3,000 of ntfy's 4,096): no button is offered. */
const MAX_WORDS_BYTES = 400;

// The grant the suggestions offer, or undefined when none can be shown whole in words.
export function sessionGrant(suggestions: unknown): SessionGrant | undefined {
  if (!Array.isArray(suggestions)) return undefined;
  const updates = suggestions.flatMap((entry: unknown) => {
    const update = toSessionUpdate(entry);
    return update === undefined ? [] : [update];
  });
  if (updates.length === 0) return undefined;
  const words = updates.map(describe).join("; ");
  return Buffer.byteLength(words) > MAX_WORDS_BYTES ? undefined : { updates, words };
}

function toSessionUpdate(entry: unknown): SessionUpdate | undefined {
  if (!entry || typeof entry !== "object") return undefined;
  const raw = entry as Record<string, unknown>;
  if (raw.type === "addRules" && raw.behavior === "allow" && Array.isArray(raw.rules)) {
    const rules = raw.rules.flatMap((rule: unknown) => {
      const { toolName, ruleContent } = (rule ?? {}) as Record<string, unknown>;
      if (typeof toolName !== "string" || toolName === "") return [];
      if (ruleContent !== undefined && typeof ruleContent !== "string") return [];
      return [ruleContent === undefined ? { toolName } : { toolName, ruleContent }];
    });
    if (rules.length === 0 || rules.length !== raw.rules.length) return undefined;
    return { type: "addRules", rules, behavior: "allow", destination: "session" };
  }
  if (raw.type === "addDirectories" && Array.isArray(raw.directories)) {
    const directories = raw.directories.filter(
      (dir): dir is string => typeof dir === "string" && dir !== "",
    );
    if (directories.length === 0 || directories.length !== raw.directories.length) return undefined;
    return { type: "addDirectories", directories, destination: "session" };
  }
  if (raw.type === "setMode" && raw.mode === "acceptEdits") {
    return { type: "setMode", mode: "acceptEdits", destination: "session" };
  }
  return undefined;
}

// One update in words: "allow `npm test …` commands", "work in /home/dev/app", "accept file edits".
function describe(update: SessionUpdate): string {
  switch (update.type) {
    case "addRules":
      return `allow ${update.rules.map(describeRule).join(", ")}`;
    case "addDirectories":
      return `work in ${update.directories.map((dir) => shown(dir)).join(", ")}`;
    case "setMode":
      return "accept file edits without asking";
  }
}

// Bash(npm test:*) → `npm test …` commands; Bash(npm test) → the command `npm test`;
// a tool without content → every <tool> call; any other → <tool> `<content>`.
function describeRule(rule: { toolName: string; ruleContent?: string }): string {
  const tool = shown(rule.toolName);
  const content = rule.ruleContent;
  if (content === undefined || content === "") return `every ${tool} call`;
  if (rule.toolName === "Bash") {
    return content.endsWith(":*")
      ? `\`${shown(content.slice(0, -2))} …\` commands`
      : `the command \`${shown(content)}\``;
  }
  return `${tool} \`${shown(content)}\``;
}

function shown(text: string): string {
  return inertText(text, "line").replaceAll("`", "'");
}
