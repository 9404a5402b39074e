import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { buildConfigSchema } from "../../src/config/schema.js";
import { schemaProperties, type SchemaNode } from "../helpers/schema-properties.js";

// The JSON Schema users point "$schema" at. `npm run schema` rewrites it; this test keeps it current.
function renderSchema(): string {
  const json = z.toJSONSchema(buildConfigSchema(), { io: "input", unrepresentable: "any" });
  const withTitle = {
    $schema: json.$schema,
    title: "hook-notify configuration",
    ...json,
  };
  return `${JSON.stringify(withTitle, null, 2)}\n`;
}

describe("schema/config.schema.json", () => {
  it("is generated from the zod config schema", async () => {
    await expect(renderSchema()).toMatchFileSnapshot("../../schema/config.schema.json");
  });

  it("lists every sink type", () => {
    const text = renderSchema();
    for (const type of ["desktop", "sound", "chat", "email", "webhook"]) {
      expect(text).toContain(`"const": "${type}"`);
    }
  });

  it("describes every property, so no option goes undocumented", () => {
    const schema = JSON.parse(renderSchema()) as SchemaNode;
    const undocumented = schemaProperties(schema)
      .filter(({ node }) => !node.description?.trim())
      .map(({ path }) => path);
    expect(undocumented, "add z.describe(…) or z.meta({ description }) to these").toEqual([]);
  });
});
