import { createScanner } from "jsonc-parser";

/** jsonc-parser's SyntaxKind is an ambient const enum, which verbatimModuleSyntax cannot read. */
const KIND = {
  closeBrace: 2,
  closeBracket: 4,
  comma: 5,
  lineComment: 12,
  blockComment: 13,
  lineBreak: 14,
  trivia: 15,
  eof: 17,
} as const;

/** Marks where a comment was, so its line can go too; a raw NUL cannot occur in valid JSON. */
const REMOVED = "\u0000";

// --fix-jsonc: turns JSONC into strict JSON, keeping layout; drops comments, trailing commas, the BOM.
export function toStrictJson(text: string): string {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const scanner = createScanner(body, false);
  const parts: string[] = [];
  let pendingComma: string[] | undefined;
  for (let kind: number = scanner.scan(); kind !== KIND.eof; kind = scanner.scan()) {
    const start = scanner.getTokenOffset();
    const isComment = kind === KIND.lineComment || kind === KIND.blockComment;
    const token = isComment ? REMOVED : body.slice(start, start + scanner.getTokenLength());
    if (kind === KIND.comma) {
      if (pendingComma !== undefined) parts.push(...pendingComma);
      pendingComma = [token];
      continue;
    }
    if (pendingComma !== undefined) {
      if (isComment || kind === KIND.trivia || kind === KIND.lineBreak) {
        pendingComma.push(token);
        continue;
      }
      const isTrailing = kind === KIND.closeBrace || kind === KIND.closeBracket;
      parts.push(...(isTrailing ? pendingComma.slice(1) : pendingComma));
      pendingComma = undefined;
    }
    parts.push(token);
  }
  if (pendingComma !== undefined) parts.push(...pendingComma);
  return dropCommentLines(parts.join(""));
}

// A line that held only a comment goes away; a comment after a value takes its spaces with it.
function dropCommentLines(text: string): string {
  /* eslint-disable no-control-regex -- NUL is our own marker for a removed comment */
  return text
    .replace(/^[ \t]*(?:\u0000[ \t]*)+\r?\n/gm, "")
    .replace(/[ \t]*\u0000/g, "")
    .replace(/[ \t]+(\r?\n)/g, "$1");
  /* eslint-enable no-control-regex */
}
