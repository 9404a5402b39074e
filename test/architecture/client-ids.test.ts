// One client's knowledge lives in its adapter: no file of src/ but clients/<id>.ts writes a
// client's id as a string ("droid", 'gemini', `codex`), so adding a client is its adapter, its template,
// its tests and one line in clients/index.ts, and never a hunt for special cases elsewhere.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLIENT_IDS } from "../../src/clients/index.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((name) => name.endsWith(".ts"))
  .map((name) => ({
    path: relative(SRC, join(SRC, name)).replaceAll("\\", "/"),
    text: readFileSync(join(SRC, name), "utf8"),
  }));

describe("client ids", () => {
  it("finds the source files and the clients", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(CLIENT_IDS.length).toBeGreaterThan(5);
  });

  it.each(CLIENT_IDS)("%s is written nowhere in src/ but in its own adapter", (id) => {
    const pattern = new RegExp(`["'\`]${id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\`]`);
    const offenders = files
      .filter((file) => file.path !== `clients/${id}.ts` && pattern.test(file.text))
      .map((file) => file.path);
    expect(offenders).toEqual([]);
  });

  it("would catch one", () => {
    expect(new RegExp(`["'\`]droid["'\`]`).test('if (client === "droid")')).toBe(true);
  });
});
