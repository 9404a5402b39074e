// install --mcp and uninstall: `hook-notify mcp` registered as a stdio MCP server named
// "hook-notify" in each client's own file for MCP servers (its adapter's `mcp`: where, the format,
// the key of its map of servers, and how it writes a program with arguments), as that client's
// own `mcp add` writes it. Planning is pure (text in, text out); the write goes through
// write-file.ts (lock, .bak, temp file and rename), the same as the hook entries'.
import type { ClientAdapter, McpPlace } from "../clients/adapter.js";
import type { LocateInput } from "../core/install-target.js";
import { HookNotifyError } from "../errors.js";
import { detectFormatting, setValue, valueAt, type Doc } from "./jsonc-edit.js";
import { readStamped } from "./file-stamp.js";
import { withFileLock, writeAtomic } from "./write-file.js";
import { parse, type ParseError } from "jsonc-parser";

export const MCP_SERVER_NAME = "hook-notify";

/** What a change to one client's MCP file is. */
export interface McpChange {
  client: ClientAdapter;
  file: string;
  /** The text wanted; undefined: nothing to change. */
  next: string | undefined;
  /** A sentence for the report. */
  said: string;
  command: McpCommand;
}

/** How the client is to start `hook-notify mcp`: a program and its arguments. */
export interface McpCommand {
  program: string;
  args: readonly string[];
}

// The file's text with our server added (install) or taken out (uninstall); undefined when it
// is already so. Throws when the file is not one the client could read either.
export function planMcpText(
  place: McpPlace,
  action: "install" | "uninstall",
  text: string,
  command: McpCommand,
  shown: string,
): string | undefined {
  const entry = action === "install" ? place.entry(command.program, command.args) : undefined;
  return place.format === "toml"
    ? planToml(place, text, entry)
    : planJson(place, text, entry, shown);
}

function planJson(
  place: McpPlace,
  text: string,
  entry: Record<string, unknown> | undefined,
  shown: string,
): string | undefined {
  const errors: ParseError[] = [];
  const data: unknown = parse(text === "" ? "{}" : text, errors, { allowTrailingComma: false });
  if (errors.length > 0 || typeof data !== "object" || data === null || Array.isArray(data))
    throw new HookNotifyError(
      "SETTINGS_INVALID",
      `${shown}: not a JSON object, so hook-notify's MCP server was not added. Fix the file (or move it away), then run again.`,
    );
  const doc: Doc = { text: text === "" ? "{}\n" : text, formatting: detectFormatting(text) };
  const path = [...place.servers, MCP_SERVER_NAME];
  if (JSON.stringify(valueAt(doc, path)) === JSON.stringify(entry)) return undefined;
  if (entry === undefined && valueAt(doc, path) === undefined) return undefined;
  return setValue(doc, path, entry).text;
}

// Codex's config.toml: our table, [mcp_servers.hook-notify] (and any sub-table of it), replaced
// or taken out as lines; every other line stays as written. Values are TOML basic strings, which
// JSON's string escapes are.
function planToml(
  place: McpPlace,
  text: string,
  entry: Record<string, unknown> | undefined,
): string | undefined {
  const table = `${place.servers.join(".")}.${MCP_SERVER_NAME}`;
  const lines = text === "" ? [] : text.split("\n");
  const ours = (line: string) => {
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/.exec(line)?.[1]?.replaceAll('"', "");
    return header === undefined ? undefined : header === table || header.startsWith(`${table}.`);
  };
  const kept: string[] = [];
  let inOurs = false;
  for (const line of lines) {
    const header = ours(line);
    if (header !== undefined) inOurs = header;
    if (!inOurs) kept.push(line);
  }
  while (kept.length > 0 && kept.at(-1)?.trim() === "") kept.pop();
  const block =
    entry === undefined
      ? []
      : [
          `[${table}]`,
          ...Object.entries(entry).map(([key, value]) => `${key} = ${tomlValue(value)}`),
        ];
  const body = [...kept, ...(kept.length > 0 && block.length > 0 ? [""] : []), ...block];
  const next = body.length === 0 ? "" : `${body.join("\n")}\n`;
  return next === text ? undefined : next;
}

function tomlValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(", ")}]`;
  return JSON.stringify(value);
}

// One change per client that takes MCP servers (`mcp` in its adapter), planned from its file.
export async function planMcpChanges(
  action: "install" | "uninstall",
  adapters: readonly ClientAdapter[],
  input: LocateInput,
  commandFor: (client: ClientAdapter) => McpCommand,
  show: (file: string) => string,
): Promise<McpChange[]> {
  const changes: McpChange[] = [];
  for (const client of adapters) {
    if (!client.mcp) continue;
    const file = client.mcp.file(input);
    const text = (await readStamped(file)).bytes?.toString("utf8");
    if (text === undefined && action === "uninstall") continue;
    const command = commandFor(client);
    const next = planMcpText(client.mcp, action, text ?? "", command, show(file));
    const verb = action === "install" ? "registered in" : "taken out of";
    const said =
      next === undefined
        ? `${client.name}: ${show(file)}: hook-notify's MCP server ${action === "install" ? "is already there" : "is not there"}`
        : `${client.name}: hook-notify's MCP server ${verb} ${show(file)}`;
    changes.push({ client, file, next, said, command });
  }
  return changes;
}

// Writes the planned changes (each under its file's lock, re-read so nothing another program
// wrote meanwhile is lost); returns the report's lines.
export async function writeMcpChanges(
  action: "install" | "uninstall",
  changes: readonly McpChange[],
  show: (file: string) => string,
): Promise<string[]> {
  const lines: string[] = [];
  for (const change of changes) {
    if (change.next === undefined || change.client.mcp === undefined) {
      lines.push(change.said);
      continue;
    }
    const place = change.client.mcp;
    const shown = show(change.file);
    await withFileLock(change.file, shown, async () => {
      // Planned again from what is there now; another program's write in between: once more.
      for (let attempt = 0; attempt < 3; attempt++) {
        const read = await readStamped(change.file);
        const text = read.bytes?.toString("utf8") ?? "";
        const next = planMcpText(place, action, text, change.command, shown);
        if (next === undefined) return;
        const removesFile = action === "uninstall" && next.trim() === "";
        const result = await writeAtomic({
          file: change.file,
          shown,
          next: removesFile ? undefined : next,
          expected: read.stamp,
          previous: read.bytes,
        });
        if (result.status === "written") return;
      }
      throw new HookNotifyError(
        "SETTINGS_CONFLICT",
        `${shown}: another program kept writing it, so hook-notify's MCP server was not ${action === "install" ? "added" : "taken out"}. Close the client, then run again.`,
      );
    });
    lines.push(change.said);
  }
  return lines;
}
