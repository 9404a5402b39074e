import { readFile } from "node:fs/promises";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { HookNotifyError } from "../errors.js";

/** What we learnt from one settings file's text. */
export interface ParsedSettings {
  value: unknown;
  /** Comments, trailing commas or a byte-order mark: JSONC, which Claude Code and droid reject. */
  isJsonc: boolean;
  hasBom: boolean;
}

const BOM = "\uFEFF";

// Reads a file's text; a missing file is undefined (install creates it), other errors are fatal.
export async function readText(file: string, shown: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new HookNotifyError(
      "SETTINGS_UNREADABLE",
      `${shown}: cannot read the file (${(error as Error).message}). Check its permissions, then run again.`,
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
  const value: unknown = parse(body, lenient, { allowTrailingComma: true });
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
