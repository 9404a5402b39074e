// Colour and symbols for human output: only on a terminal, and never when NO_COLOR is set
// (https://no-color.org), unless FORCE_COLOR says otherwise (--color / --no-color set these). Piped or redirected output stays plain text, without escapes. Colours
// are marks that the output guard (src/inert-output.ts) turns into escapes, the only ones it lets by.
import { COLOUR_MARK, colourMark } from "./inert-output.js";
import stringWidth from "string-width";

/** How one command paints its output; every function is the identity in plain mode. */
export interface Style {
  readonly isRich: boolean;
  ok(text: string): string;
  fail(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  /** "✓" on a terminal, "ok" otherwise. */
  readonly okMark: string;
  /** "✗" on a terminal, "failed" otherwise. */
  readonly failMark: string;
}

// Decides once per command from the stream it writes to and the environment.
export function createStyle(
  stream: { isTTY?: boolean | undefined },
  env: Readonly<Record<string, string | undefined>>,
): Style {
  const isRich = isForced(env) ?? (stream.isTTY === true && !env.NO_COLOR && env.TERM !== "dumb");
  const paint =
    (open: number, close: number) =>
    (text: string): string =>
      isRich ? `${colourMark(open)}${text}${colourMark(close)}` : text;
  return {
    isRich,
    ok: paint(32, 39),
    fail: paint(31, 39),
    warn: paint(33, 39),
    dim: paint(2, 22),
    bold: paint(1, 22),
    okMark: isRich ? "✓" : "ok",
    failMark: isRich ? "✗" : "failed",
  };
}

// FORCE_COLOR (Node's and chalk's convention) wins over the terminal test and NO_COLOR: "0" or
// "false" turns colour off, any other value on; undefined when it is not set.
function isForced(env: Readonly<Record<string, string | undefined>>): boolean | undefined {
  const force = env.FORCE_COLOR;
  if (force === undefined) return undefined;
  return force !== "0" && force.toLowerCase() !== "false";
}

// The width a person sees: colour marks (escapes once printed) take no columns.
export function visibleLength(text: string): number {
  // Columns on a terminal, not UTF-16 units: CJK and emoji take two (the tables stay aligned).
  return stringWidth(text.replace(COLOUR_MARK, ""));
}

// Lays out rows in columns two spaces apart; the last column is not padded.
export function formatTable(header: readonly string[], rows: readonly string[][]): string[] {
  const all = [header.map((h) => h), ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => visibleLength(row[i] ?? ""))));
  return all.map((row) =>
    row
      .map((cell, i) =>
        i === row.length - 1 ? cell : cell + " ".repeat((widths[i] ?? 0) - visibleLength(cell)),
      )
      .join("  ")
      .trimEnd(),
  );
}
