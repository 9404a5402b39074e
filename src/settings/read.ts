import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { HookNotifyError } from "../errors.js";
import { readStamped, type Stamp, type Stamped } from "./file-stamp.js";

/** What we learnt from one settings file's text. */
export interface ParsedSettings {
  value: unknown;
  /** Comments, trailing commas or a byte-order mark: JSONC, which Claude Code and droid reject. */
  isJsonc: boolean;
  hasBom: boolean;
}

const BOM = "\uFEFF";

/** A settings file as read: its text, its bytes and its stamp (all undefined: no file). */
export interface ReadFile {
  text: string | undefined;
  bytes: Buffer | undefined;
  stamp: Stamp | undefined;
}

// Reads a file's text; a missing file is undefined (install creates it), other errors are fatal.
export async function readText(file: string, shown: string): Promise<string | undefined> {
  return (await readSettingsFile(file, shown)).text;
}

// The text plus what it takes to notice, before writing, that another program changed the file.
export async function readSettingsFile(file: string, shown: string): Promise<ReadFile> {
  let read: Stamped;
  try {
    read = await readStamped(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EISDIR") {
      throw new HookNotifyError(
        "SETTINGS_UNREADABLE",
        `${shown}: this is a folder, not a settings file. Move it out of the way, then run again.`,
        { cause: error },
      );
    }
    throw new HookNotifyError(
      "SETTINGS_UNREADABLE",
      `${shown}: cannot read the file (${(error as Error).message}). Check its permissions, then run again.`,
      { cause: error },
    );
  }
  const text = read.bytes === undefined ? undefined : decodeUtf8(read.bytes, shown);
  return { text, ...read };
}

// Strict UTF-8: a lenient decode would turn bad bytes into U+FFFD, and our write would then
// replace the file's own bytes with those. The BOM is kept, so parseSettings still sees it.
function decodeUtf8(bytes: Buffer, shown: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new HookNotifyError(
      "SETTINGS_INVALID",
      `${shown}: the file is not UTF-8 text, so nothing was written. Save it as UTF-8, then run "hook-notify install" again.`,
      { cause: error },
    );
  }
}

// Parses leniently and tells strict JSON from JSONC; a file that is not even JSONC is an error.
export function parseSettings(text: string, shown: string): ParsedSettings {
  const hasBom = text.startsWith(BOM);
  const body = hasBom ? text.slice(1) : text;
  if (body.trim() === "") return { value: {}, isJsonc: hasBom, hasBom };
  const lenient: ParseError[] = [];
  const value = parseOrRefuse(
    () => parse(body, lenient, { allowTrailingComma: true }) as unknown,
    shown,
  );
  const first = lenient[0];
  if (first !== undefined) {
    const { line, column } = lineColumn(body, first.offset);
    throw new HookNotifyError(
      "SETTINGS_INVALID",
      `${shown}: invalid JSON at line ${line} column ${column} (${printParseErrorCode(first.error)}). Fix the file, then run "hook-notify install" again.`,
    );
  }
  const strict: ParseError[] = [];
  parse(body, strict, { allowTrailingComma: false, disallowComments: true });
  return { value, isJsonc: hasBom || strict.length > 0, hasBom };
}

// The parser recurses once per level: thousands of nested arrays overflow the stack. Say so clearly.
function parseOrRefuse(run: () => unknown, shown: string): unknown {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new HookNotifyError(
      "SETTINGS_INVALID",
      `${shown}: nested too deeply for hook-notify to edit safely, so nothing was written. Add the entries by hand, then run again.`,
      { cause: error },
    );
  }
}

// 1-based line and column of an offset, as editors show them.
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

// Where the first comment, trailing comma or BOM is, for a message that points at it.
export function firstJsoncProblem(text: string): string {
  if (text.startsWith(BOM)) return "a byte-order mark at the start";
  const body = text;
  const strict: ParseError[] = [];
  parse(body, strict, { allowTrailingComma: false, disallowComments: true });
  const first = strict[0];
  if (first === undefined) return "JSONC";
  const { line, column } = lineColumn(body, first.offset);
  const what =
    printParseErrorCode(first.error) === "InvalidCommentToken" ? "a comment" : "a trailing comma";
  return `${what} at line ${line} column ${column}`;
}

// A JSON or JSONC file's data as its client would read it, or undefined when it cannot be parsed.
export function readJsonLeniently(text: string): unknown {
  try {
    return parse(text.replace(/^\uFEFF/, ""), [], { allowTrailingComma: true });
  } catch {
    return undefined; // nested too deeply for the parser: that file's own install refuses it
  }
}
