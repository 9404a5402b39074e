// The defaults the JSON Schema shows in editors are the ones the code applies: one source.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { DEFAULT_COOLDOWNS } from "../../src/core/defaults.js";

interface Node {
  default?: unknown;
  properties?: Record<string, Node>;
}

const schema = JSON.parse(
  readFileSync(new URL("../../schema/config.schema.json", import.meta.url), "utf8"),
) as Node;
const topLevel = Object.entries(schema.properties ?? {}).filter(([, n]) => "default" in n);

describe("config defaults", () => {
  it("the schema states defaults for the top-level keys", () => {
    expect(topLevel.map(([key]) => key)).toEqual(
      expect.arrayContaining(["maxBodyLength", "dedupeSeconds", "minTurnSeconds", "enabled"]),
    );
  });

  it.each(topLevel)("%s: validateConfig applies the schema's default", (key, node) => {
    const { value } = validateConfig({ sinks: {} }, {});
    const applied = (value as unknown as Record<string, unknown>)[key];
    // cooldown stays unset in the value: policy merges DEFAULT_COOLDOWNS over it.
    if (key === "cooldown") expect(node.default).toEqual(DEFAULT_COOLDOWNS);
    else expect(applied).toEqual(node.default);
  });
});
