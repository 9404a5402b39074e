// The client, sink and chat-service tables of README.md and docs/*.md, generated from the
// registries (scripts/docs-tables/tables.ts). Prints which files are out of date; with --write it
// replaces the text between each `<!-- table:<name>:start -->` and `<!-- table:<name>:end -->`.
// test/docs/tables.test.ts fails when a file and the registries disagree.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleScript } from "./bundle-script.mjs";

const MARKER = /<!-- table:([a-z-]+):start -->\n([\s\S]*?)<!-- table:\1:end -->/g;

/** The files that may hold tables: README.md and every page in docs/, relative to `root`. */
export function docFiles(root) {
  const pages = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md"));
  return ["README.md", ...pages.sort().map((name) => `docs/${name}`)];
}

/** Each table block of a Markdown text: its name and the text between its markers. */
export function blocksIn(text) {
  return [...text.matchAll(MARKER)].map((match) => ({ name: match[1], content: match[2] }));
}

/** A table laid out by prettier with the project's settings, as it stands in `file`. */
export async function formatTable(markdown, file) {
  const prettier = await import("prettier");
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(markdown, { ...options, parser: "markdown" });
}

/** The text with every block replaced by `tables[name]` (formatted); unknown names throw. */
export function replaceBlocks(text, tables) {
  return text.replace(MARKER, (_, name) => {
    if (tables[name] === undefined) throw new Error(`no table named ${name}`);
    return `<!-- table:${name}:start -->\n\n${tables[name]}\n<!-- table:${name}:end -->`;
  });
}

/** Every table formatted for `file` (prettier reads its settings from the file's place). */
export async function formattedTables(tables, file) {
  const out = {};
  for (const [name, render] of Object.entries(tables))
    out[name] = await formatTable(render(), file);
  return out;
}

async function main() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const work = mkdtempSync(join(tmpdir(), "hook-notify-tables-"));
  try {
    const outfile = await bundleScript(
      join(root, "scripts/docs-tables/tables.ts"),
      join(work, "tables.mjs"),
    );
    const { TABLES } = await import(pathToFileURL(outfile).href);
    let stale = 0;
    for (const file of docFiles(root)) {
      const path = join(root, file);
      const text = readFileSync(path, "utf8");
      if (blocksIn(text).length === 0) continue;
      const updated = replaceBlocks(text, await formattedTables(TABLES, path));
      if (updated === text) continue;
      stale++;
      if (process.argv.includes("--write")) {
        writeFileSync(path, updated);
        console.log(`${file}: tables updated`);
      } else console.log(`${file}: out of date (node scripts/docs-tables.mjs --write)`);
    }
    if (stale > 0 && !process.argv.includes("--write")) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
