import { CHAT_SERVICES } from "../../src/sinks/chat/index.js";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  formatReference,
  readmeSection,
  renderReference,
} from "../../scripts/config-reference.mjs";
import { schemaProperties, type SchemaNode } from "../helpers/schema-properties.js";

const PAGE = fileURLToPath(new URL("../../docs/configuration.md", import.meta.url));
const SCHEMA = new URL("../../schema/config.schema.json", import.meta.url);
const schema = JSON.parse(await readFile(SCHEMA, "utf8")) as SchemaNode;
const reference = renderReference(schema);

const sinkTypes = (): string[] => {
  const sinks = schema.properties?.sinks?.additionalProperties as SchemaNode;
  const types = (sinks.anyOf ?? []).map((entry) => {
    const type = entry.properties?.type as { const: string };
    return type.const;
  });
  return [...new Set(types)]; // chat: one entry schema per service
};

describe("docs/configuration.md config reference", () => {
  it("is what the script renders from schema/config.schema.json", async () => {
    const section = readmeSection(await readFile(PAGE, "utf8"));
    expect(section, "docs/configuration.md lacks the config-reference markers").toBeDefined();
    expect(
      section,
      'docs/configuration.md\'s config reference is out of date: run "npm run schema" (after a schema change), then "node scripts/config-reference.mjs --write"',
    ).toBe(await formatReference(schema, PAGE));
  });

  it("names every property of the JSON Schema", () => {
    for (const { path, name } of schemaProperties(schema)) {
      const named = reference.includes(`\`${name}\``) || reference.includes(`.${name}\``);
      expect(named, `${path} is missing from the reference`).toBe(true);
    }
  });

  it("has a table for every sink type", () => {
    expect(sinkTypes()).toEqual([
      "desktop",
      "sound",
      "voice",
      "terminal",
      "chat",
      "email",
      "webhook",
    ]);
    for (const type of sinkTypes().filter((type) => type !== "chat")) {
      expect(reference).toMatch(new RegExp(`\\*\\*\`${type}\` sink\\*\\*\\n\\n\\| key `));
    }
    for (const service of CHAT_SERVICES) {
      expect(reference).toContain(`**\`chat\` sink, \`service\`: \`${service}\`**\n\n| key `);
    }
  });

  it("marks secret fields", () => {
    expect(reference).toMatch(/`smtp\.pass` \| string; secret: use `\$\{VAR\}`/);
    expect(reference).toMatch(/`headers` \| [^|]*; secret: use `\$\{VAR\}`/);
  });
});
