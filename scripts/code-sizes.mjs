#!/usr/bin/env node
// The sizes of src/: how many files, their median length, the files over 250 lines, and every
// function (declaration, method, accessor, constructor, arrow or function expression) over 40
// and over 80 lines, found with the TypeScript compiler's parser.
// A function's length is the lines it spans less the lines of the data literals inside it: an
// object or array literal, or a template string, that holds no function (a table, a schema, a
// help text). A function nested in another counts in both, as a reader sees it.
// Used by `node scripts/code-sizes.mjs` (prints the figures; `--json` prints them as data) and by
// test/architecture/code-sizes.test.ts (fails when a function over 80 lines appears).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { listSources } from "./folder-graph.mjs";

export const LONG_FILE = 250;
export const LONG_FUNCTION = 80;
export const LONGISH_FUNCTION = 40;

const isFunctionLike = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

const isLiteral = (node) =>
  ts.isObjectLiteralExpression(node) ||
  ts.isArrayLiteralExpression(node) ||
  ts.isTemplateExpression(node) ||
  ts.isNoSubstitutionTemplateLiteral(node);

const holdsFunction = (node) =>
  isFunctionLike(node) || (ts.forEachChild(node, holdsFunction) ?? false);

// The lines a file has, as `wc -l` counts them (a last line without "\n" counts too).
export function lineCount(text) {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

// A readable name for a function node: its own, the variable or property it is given to, or
// "(anonymous)".
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    return parent.name.getText();
  }
  if (parent && ts.isCallExpression(parent)) {
    return `${parent.expression.getText().slice(0, 40)}(…)`;
  }
  return "(anonymous)";
}

// Every function of one source text: [{ name, line, lines }] with line 1-based.
export function functionsOf(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const span = (node) => lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1;
  // Lines of the data literals under node (the outermost ones, each counted once), less the
  // first and last line each shares with the code around it.
  const dataLines = (node) => {
    let lines = 0;
    const visit = (child) => {
      if (isLiteral(child) && !holdsFunction(child)) {
        lines += Math.max(0, span(child) - 2);
        return;
      }
      ts.forEachChild(child, visit);
    };
    ts.forEachChild(node, visit);
    return lines;
  };
  const found = [];
  const visit = (node) => {
    if (isFunctionLike(node) && node.body) {
      found.push({
        name: nameOf(node),
        line: lineOf(node.getStart(source)) + 1,
        lines: span(node) - dataLines(node),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// The figures for every .ts file under dir.
export function codeSizes(dir) {
  const files = listSources(dir).map((file) => {
    const text = readFileSync(join(dir, file), "utf8");
    return { file, lines: lineCount(text), functions: functionsOf(file, text) };
  });
  const lengths = files.map((file) => file.lines).sort((a, b) => a - b);
  const middle = lengths.length / 2;
  const median =
    lengths.length === 0
      ? 0
      : lengths.length % 2 === 1
        ? lengths[Math.floor(middle)]
        : (lengths[middle - 1] + lengths[middle]) / 2;
  const functions = files.flatMap(({ file, functions }) =>
    functions.map((fn) => ({ ...fn, file })),
  );
  const byLength = (a, b) => b.lines - a.lines;
  return {
    files: files.length,
    median,
    atMost80: lengths.filter((lines) => lines <= 80).length,
    longFiles: files
      .filter((file) => file.lines > LONG_FILE)
      .map(({ file, lines }) => ({ file, lines }))
      .sort(byLength),
    longFunctions: functions.filter((fn) => fn.lines > LONG_FUNCTION).sort(byLength),
    longishFunctions: functions.filter((fn) => fn.lines > LONGISH_FUNCTION).sort(byLength),
  };
}

function print(sizes) {
  const where = (fn) => `  ${String(fn.lines).padStart(4)}  ${fn.file}:${fn.line} ${fn.name}`;
  const lines = [
    `files: ${sizes.files}, median ${sizes.median} lines, ${sizes.atMost80} at most 80 lines`,
    `files over ${LONG_FILE} lines: ${sizes.longFiles.length}`,
    ...sizes.longFiles.map(({ file, lines }) => `  ${String(lines).padStart(4)}  ${file}`),
    `functions over ${LONG_FUNCTION} lines: ${sizes.longFunctions.length}`,
    ...sizes.longFunctions.map(where),
    `functions over ${LONGISH_FUNCTION} lines: ${sizes.longishFunctions.length}`,
    ...sizes.longishFunctions.map(where),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = codeSizes(fileURLToPath(new URL("../src", import.meta.url)));
  if (process.argv.includes("--json")) process.stdout.write(`${JSON.stringify(sizes, null, 2)}\n`);
  else print(sizes);
}
