// The work of `hook-notify sessions`: list, get, create, update, messages and send against the
// service, each as a table or a line for people and as JSON with --json.
import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
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
import { loadService, runServiceWork, type CommandIo } from "./service-command.js";
import { listAction, messagesAction } from "./sessions-read.js";

/** What `hook-notify sessions` does (the yargs choices in sessions.ts list the same). */
export const SESSION_ACTIONS = ["list", "get", "create", "update", "messages", "send"] as const;
export type SessionAction = (typeof SESSION_ACTIONS)[number];

/** The parsed command line of `hook-notify sessions`. */
export interface SessionsRun {
  configPath?: string | undefined;
  action: SessionAction;
  id?: string | undefined;
  text?: string | undefined;
  json: boolean;
  all: boolean;
  limit?: number | undefined;
  computer?: string | undefined;
  role?: MessageRole | undefined;
  cwd?: string | undefined;
  settings: SessionSettingsInput;
  files: string[];
  images: string[];
}

/** The largest file `sessions send --file` attaches (the service's limit is not documented). */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

// Exit code: 0 when the service accepted, 1 otherwise (one line on stderr, key masked).
export async function runSessions(io: CommandIo, options: SessionsRun): Promise<number> {
  const name = `sessions ${options.action}`;
  const needsId = options.action !== "list" && options.action !== "create";
  if (needsId && !options.id) {
    io.err(`hook-notify ${name}: give the session's id, e.g. hook-notify ${name} sess-123`);
    return 1;
  }
  const loaded = loadService(io, name, options.configPath);
  if (!loaded) return 1;
  return runServiceWork(io, name, loaded, (ctx) => ACTIONS[options.action](ctx, io, options));
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
    if (Object.keys(o.settings).length === 0)
      throw new HookNotifyError("USAGE", "nothing to change: give --model, --tag, …");
    showSession(io, o.json, await updateSession(ctx, o.id ?? "", o.settings));
  },
  messages: messagesAction,
  send: sendAction,
};

async function sendAction(ctx: ServiceContext, io: CommandIo, o: SessionsRun): Promise<void> {
  const files = await Promise.all(o.files.map((path) => attachment(path)));
  const images = await Promise.all(
    o.images.map(async (path) => ({ data: (await readBounded(path)).toString("base64") })),
  );
  const sent = await sendMessage(ctx, o.id ?? "", {
    text: o.text ?? "",
    ...(files.length > 0 ? { files } : {}),
    ...(images.length > 0 ? { images } : {}),
    computerId: o.computer,
  });
  io.out(
    o.json ? JSON.stringify(sent) : `Sent ${sent.messageId}; the session is ${cell(sent.status)}.`,
  );
}

// A file for the `files` field: its bytes in base64, and its text when it is not a PDF.
async function attachment(path: string) {
  const bytes = await readBounded(path);
  const isPdf = bytes.subarray(0, 5).toString("latin1") === "%PDF-";
  return {
    data: bytes.toString("base64"),
    ...(isPdf ? {} : { parsedData: bytes.toString("utf8") }),
    name: basename(path),
    path: resolve(path),
  };
}

async function readBounded(path: string): Promise<Buffer> {
  const bytes = await readFile(path).catch((error: unknown) => {
    throw new HookNotifyError("USAGE", `cannot read ${path}: ${(error as Error).message}`);
  });
  if (bytes.length > MAX_FILE_BYTES)
    throw new HookNotifyError("USAGE", `${path} is larger than 5 MiB; attach a smaller file.`);
  return bytes;
}

function showSession(io: CommandIo, json: boolean, s: Session): void {
  if (json) {
    io.out(JSON.stringify(s, null, 2));
    return;
  }
  const usage = s.sessionSettings?.inclusiveTokenUsage ?? s.sessionSettings?.tokenUsage;
  const lines = [
    `${s.sessionId}: ${s.status ?? "?"}, ${String(s.messageCount ?? "?")} messages, updated ${timeOf(s.updatedAt)}`,
    s.title ? `Title: ${cell(s.title)}` : "",
    s.computerId ? `Computer: ${cell(s.computerId)}` : "",
    s.sessionSettings?.model ? `Model: ${cell(s.sessionSettings.model)}` : "",
    usage?.serviceCredits === undefined ? "" : `Credits: ${String(usage.serviceCredits)}`,
  ];
  for (const line of lines.filter(Boolean)) io.out(line);
}
