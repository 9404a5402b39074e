// The work of `hook-notify sessions`: list, get, create, update, messages and send against the
// service, each as a table or a line for people and as JSON with --json.
import { HookNotifyError } from "../errors.js";
import { getSession } from "../service/client.js";
import type { ServiceContext } from "../service/http.js";
import type { Session } from "../service/schemas.js";
import {
  createSession,
  sendMessage,
  updateSession,
  type MessageRole,
  type SessionSettingsInput,
} from "../service/session-api.js";
import { cell, timeOf } from "./cells.js";
import { closestName } from "../did-you-mean.js";
import { withService, type CommandIo } from "./service-command.js";
import { listAction, messagesAction } from "./sessions-read.js";
import { attachments, messageText, readStdin } from "./sessions-attach.js";

/** What `hook-notify sessions` does (the yargs choices in sessions.ts list the same). */
export const SESSION_ACTIONS = ["list", "get", "create", "update", "messages", "send"] as const;
export type SessionAction = (typeof SESSION_ACTIONS)[number];

/** The session settings the document lists as sendable (tokenUsage and inclusiveTokenUsage not). */
const SETTING_KEYS = [
  "model",
  "specModeModel",
  "runInWorktree",
  "providerLockTimestamp",
  "assistantActiveTimeMs",
  "childInclusiveTokenUsageBySessionId",
  "archivedAt",
  "tags",
  "enabledToolIds",
  "disabledToolIds",
  "compactionThresholdCheckEnabled",
];

/** The parsed command line of `hook-notify sessions`. */
export interface SessionsRun {
  configPath?: string | undefined;
  action: SessionAction;
  id?: string | undefined;
  /** send: the words after the id (and after --). */
  words?: string[] | undefined;
  /** send: a lone - (the text on stdin). */
  stdinDash?: boolean | undefined;
  /** send: --text-file PATH (- for stdin). */
  textFile?: string | undefined;
  /** send: the text itself (instead of words). */
  text?: string | undefined;
  json: boolean;
  all: boolean;
  limit?: number | undefined;
  timeoutSeconds?: number | undefined;
  computer?: string | undefined;
  role?: MessageRole | undefined;
  cwd?: string | undefined;
  settings: SessionSettingsInput;
  /** update: tags added to and removed from the session's tags (by name). */
  tagEdits?: { add: string[]; remove: string[] } | undefined;
  files?: string[] | undefined;
  images?: string[] | undefined;
  /** Reads stdin (tests give their own). */
  readStdin?: (() => Promise<Buffer>) | undefined;
}

// Exit code: 0 done, 2 a usage mistake (nothing sent), 3 the service refused, 1 other failures.
export async function runSessions(io: CommandIo, options: SessionsRun): Promise<number> {
  const name = `sessions ${options.action}`;
  const needsId = options.action !== "list" && options.action !== "create";
  const problem =
    needsId && !options.id
      ? `give the session's id, e.g. hook-notify ${name} sess-123`
      : mistakeOf(options);
  return withService(io, name, { ...options, mistake: problem }, (ctx) =>
    ACTIONS[options.action](ctx, io, options),
  );
}

// What the command line asks that this action cannot do (a flag it would ignore), if anything.
function mistakeOf(o: SessionsRun): string | undefined {
  const extra = o.action !== "send" && (o.words?.length ?? 0) > 0 ? o.words?.join(" ") : undefined;
  if (extra !== undefined) return `unexpected words: ${JSON.stringify(extra)}.`;
  if (o.computer?.trim() === "") return "--computer needs a computer id.";
  const setsSomething =
    Object.keys(o.settings).length > 0 ||
    (o.tagEdits?.add.length ?? 0) + (o.tagEdits?.remove.length ?? 0) > 0;
  if (setsSomething && o.action !== "create" && o.action !== "update")
    return "settings (--model, --tag, …) go with create or update.";
  if (o.cwd !== undefined && o.action !== "create")
    return "--cwd is for create only (the service sets it once).";
  if ((o.tagEdits?.add.length || o.tagEdits?.remove.length) && o.action !== "update")
    return "--add-tag and --remove-tag are for update (create takes --tag).";
  if (o.tagEdits && (o.tagEdits.add.length || o.tagEdits.remove.length) && o.settings.tags)
    return "give either --tag (the whole list) or --add-tag/--remove-tag, not both.";
  if (
    (o.files !== undefined || o.images !== undefined || o.textFile !== undefined) &&
    o.action !== "send"
  )
    return "--file, --image and --text-file are for send.";
  if (o.role !== undefined && o.action !== "messages") return "--role is for messages.";
  for (const key of Object.keys(o.settings)) {
    if (key === "tokenUsage" || key === "inclusiveTokenUsage")
      return `sessionSettings.${key} is set by the service, not sent.`;
    if (!SETTING_KEYS.includes(key)) {
      const guess = closestName(key, SETTING_KEYS);
      return `${key} is not a session setting${guess ? `; did you mean ${guess}?` : ""} (settings: ${SETTING_KEYS.join(", ")}).`;
    }
  }
  return undefined;
}

type Action = (ctx: ServiceContext, io: CommandIo, o: SessionsRun) => Promise<void>;

const ACTIONS: Record<SessionAction, Action> = {
  list: listAction,
  get: async (ctx, io, o) => {
    const session = await getSession(ctx, o.id ?? "", o.computer);
    showSession(io, o.json, session);
  },
  create: async (ctx, io, o) => {
    const settings = Object.keys(o.settings).length > 0 ? o.settings : undefined;
    const session = await createSession(ctx, {
      computerId: o.computer ?? "",
      cwd: o.cwd,
      ...(settings ? { sessionSettings: settings } : {}),
    });
    showSession(io, o.json, session);
  },
  update: async (ctx, io, o) => {
    const settings = await withTagEdits(ctx, o);
    if (Object.keys(settings).length === 0)
      throw new HookNotifyError(
        "USAGE",
        "nothing to change: give --model, --tag, --add-tag, --archive, --setting KEY=JSON, …",
      );
    showSession(io, o.json, await updateSession(ctx, o.id ?? "", settings));
  },
  messages: messagesAction,
  send: sendAction,
};

// The settings with --add-tag / --remove-tag applied to the session's tags as the service has
// them now (the service takes the whole list).
async function withTagEdits(ctx: ServiceContext, o: SessionsRun): Promise<SessionSettingsInput> {
  const add = o.tagEdits?.add ?? [];
  const remove = o.tagEdits?.remove ?? [];
  if (add.length === 0 && remove.length === 0) return o.settings;
  const { parseTag } = await import("./sessions.js");
  const current = (await getSession(ctx, o.id ?? "")).sessionSettings?.tags ?? [];
  const added = add.map(parseTag);
  const dropped = new Set([...remove, ...added.map((tag) => tag.name)]);
  const missing = remove.filter((name) => !current.some((tag) => tag.name === name));
  if (missing.length > 0)
    throw new HookNotifyError(
      "USAGE",
      `the session has no tag ${missing.map((n) => JSON.stringify(n)).join(", ")}.`,
    );
  const tags = [...current.filter((tag) => !dropped.has(tag.name ?? "")), ...added];
  return { ...o.settings, tags: tags as SessionSettingsInput["tags"] };
}

async function sendAction(ctx: ServiceContext, io: CommandIo, o: SessionsRun): Promise<void> {
  const text = await messageText({
    words: o.words ?? [],
    stdinDash: o.stdinDash ?? false,
    textFile: o.textFile,
    text: o.text,
    readStdin: o.readStdin ?? readStdin,
  });
  const attached = await attachments(o.files, o.images);
  const sent = await sendMessage(ctx, o.id ?? "", { text, ...attached, computerId: o.computer });
  const files = attached.files?.length ?? 0;
  const images = attached.images?.length ?? 0;
  if (o.json) {
    io.out(
      JSON.stringify(
        {
          sessionId: o.id,
          messageId: sent.messageId,
          status: sent.status,
          characters: text.length,
          files,
          images,
        },
        null,
        2,
      ),
    );
    return;
  }
  const extras = [
    files ? `${String(files)} file${files > 1 ? "s" : ""}` : "",
    images ? `${String(images)} image${images > 1 ? "s" : ""}` : "",
  ].filter(Boolean);
  io.out(
    `Sent ${cell(sent.messageId)} to ${cell(o.id ?? "")}: ${cell(text, 60)} (${String(text.length)} characters${extras.length ? `, ${extras.join(", ")}` : ""}); the session is ${cell(sent.status)}.`,
  );
}

function showSession(io: CommandIo, json: boolean, s: Session): void {
  if (json) {
    io.out(JSON.stringify(s, null, 2));
    return;
  }
  const settings = s.sessionSettings;
  const usage = settings?.inclusiveTokenUsage ?? settings?.tokenUsage;
  const tags = (settings?.tags ?? []).map((tag) => cell(tag.name ?? "?")).join(", ");
  const lines = [
    `${s.sessionId}: ${s.status ?? "?"}, ${String(s.messageCount ?? "?")} messages, updated ${timeOf(s.updatedAt)}`,
    s.title ? `Title: ${cell(s.title)}` : "",
    s.computerId ? `Computer: ${cell(s.computerId)}` : "",
    settings?.model ? `Model: ${cell(settings.model)}` : "",
    tags ? `Tags: ${tags}` : "",
    settings?.archivedAt ? `Archived: ${cell(settings.archivedAt)}` : "",
    usage?.serviceCredits === undefined ? "" : `Credits: ${String(usage.serviceCredits)}`,
  ];
  for (const line of lines.filter(Boolean)) io.out(line);
}
