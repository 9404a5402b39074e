// The client, sink and chat-service tables in README.md and docs/ are the registries' own
// (scripts/docs-tables/tables.ts), and package.json names every client and chat service.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { blocksIn, docFiles, formattedTables } from "../../scripts/docs-tables.mjs";
import { NAMES, REQUIRED, TABLES } from "../../scripts/docs-tables/tables.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const FIX = 'run "node scripts/docs-tables.mjs --write"';

describe("tables generated from the registries", () => {
  it.each(Object.entries(REQUIRED))("%s shows its tables", (file, names) => {
    expect(blocksIn(read(file)).map((block) => block.name)).toEqual(
      expect.arrayContaining([...names]),
    );
  });

  it.each(docFiles(ROOT))("%s: every table matches the registries", async (file) => {
    const blocks = blocksIn(read(file));
    const expected = await formattedTables(TABLES, join(ROOT, file));
    for (const block of blocks) {
      expect(block.content.trim(), `${file}: table ${block.name} is out of date; ${FIX}`).toBe(
        expected[block.name]?.trim(),
      );
    }
  });
});

describe("package.json", () => {
  const pkg = JSON.parse(read("package.json")) as { description: string; keywords: string[] };
  const keyword = (id: string) => id.toLowerCase();

  it.each(NAMES.clients)(
    "names the client $name in its description and keywords",
    ({ id, name }) => {
      expect(pkg.description).toContain(name);
      expect(pkg.keywords.map(keyword)).toEqual(
        expect.arrayContaining([expect.stringContaining(id)]),
      );
    },
  );

  it.each(NAMES.services)(
    "names the chat service $name in its description and keywords",
    ({ id, name }) => {
      expect(pkg.description).toContain(name);
      expect(pkg.keywords).toContain(id);
    },
  );
});
