// One chat service's knowledge lives in its own file: nothing else in src/ compares a value with
// a service's id (`=== "telegram"`, `case "slack":`), so adding a service never means hunting
// for special cases elsewhere.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CHAT_SERVICES } from "../../src/sinks/chat/index.js";

const SRC = fileURLToPath(new URL("../../src", import.meta.url));
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((name) => name.endsWith(".ts"))
  .map((name) => ({
    path: relative(SRC, join(SRC, name)),
    text: readFileSync(join(SRC, name), "utf8"),
  }));

// The files that may name a service: its own, and its payload builder.
const ownFiles = (id: string): string[] => [`sinks/chat/${id}.ts`, `sinks/chat/format-${id}.ts`];

describe("chat services", () => {
  it("finds the source files", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(CHAT_SERVICES)("%s is special-cased nowhere but in its own file", (id) => {
    const pattern = new RegExp(
      `(?:[!=]==\\s*["'\`]${id}["'\`])|(?:["'\`]${id}["'\`]\\s*[!=]==)|(?:case\\s+["'\`]${id}["'\`])`,
    );
    const offenders = files
      .filter((file) => !ownFiles(id).includes(file.path) && pattern.test(file.text))
      .map((file) => file.path);
    expect(offenders).toEqual([]);
  });
});
