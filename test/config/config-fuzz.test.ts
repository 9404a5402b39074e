// Whatever a config file and a project file hold, reading them ends in a config and one line per
// problem, never in a crash: the hook, the worker and doctor all read them this way. The files are
// generated from the names the schemas know, the names every JavaScript object has ("toString",
// "__proto__": a config once crashed on each), ${VAR}s of both kinds, and anything else.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { TOP_LEVEL_KEYS } from "../../src/config/top-level-schema.js";
import { commonEntry } from "../../src/config/entry-common-schema.js";
import { optionShapesOf } from "../../src/config/schema.js";
import { configSecrets } from "../../src/link/config-mask.js";
import { scrub } from "../../src/redact.js";
import { sinks } from "../../src/sinks/index.js";
import type { Sink } from "../../src/sinks/sink.js";

const PROTOTYPE = ["toString", "constructor", "__proto__", "valueOf", "hasOwnProperty"];
const SECRET = "fuzz-s3cret-value-0123456789";
const env = { HOME: "/nonexistent", PATH: "/usr/bin", SECRET };

const optionKeys = (sinks as readonly Sink<unknown>[]).flatMap((sink) =>
  optionShapesOf(sink).flatMap((shape) => Object.keys(shape)),
);
const NAMES = ["a", "b", ...PROTOTYPE];
const key = fc.oneof(
  fc.constantFrom(...TOP_LEVEL_KEYS, ...commonEntry.keys, ...new Set(optionKeys)),
  fc.constantFrom(...PROTOTYPE, "sinks", "type", "to", "afterSeconds"),
  fc.string({ maxLength: 8 }),
);
const text = fc.oneof(
  fc.constantFrom(
    ...PROTOTYPE.map((name) => `\${${name}}`),
    "${SECRET}",
    "${UNSET_VARIABLE}",
    "https://hooks.example.test/${SECRET}",
    ...NAMES,
    ...sinks.map((sink) => sink.type),
    "Stop",
    "22:00-07:00",
    "{constructor} {project}",
  ),
  fc.string({ maxLength: 12 }),
);
const leaf = fc.oneof(text, fc.integer({ min: -5, max: 400 }), fc.boolean(), fc.constant(null));
const { json } = fc.letrec((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("json"), { maxLength: 3 }),
    fc.dictionary(key, tie("json"), { maxKeys: 4 }),
  ),
}));
const entry = fc
  .tuple(
    fc.constantFrom(...sinks.map((sink) => sink.type)),
    fc.dictionary(key, json, { maxKeys: 4 }),
  )
  .map(([type, rest]) => ({ type, ...rest }));
const file = fc
  .tuple(
    fc.dictionary(key, json, { maxKeys: 4 }),
    fc.dictionary(fc.constantFrom(...NAMES), fc.oneof(entry, json), { maxKeys: 3 }),
  )
  .map(([top, named]) => ({ ...top, sinks: named }));

// Written as text, so that a "__proto__" key is a key of the file (JSON.parse keeps it so).
const asText = (value: unknown) => JSON.stringify(value, null, 1);

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hn-config-fuzz-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("a config read from generated files", () => {
  it("is a config and one line per problem, never a crash; the hook's mask reads it too", async () => {
    await fc.assert(
      fc.asyncProperty(file, fc.option(file, { nil: undefined }), async (user, project) => {
        const configPath = join(dir, "config.json");
        await writeFile(configPath, asText(user));
        await writeFile(join(dir, ".hook-notify.json"), asText(project ?? {}));
        const deps = { env, homedir: "/nonexistent", platform: "linux" as const, worker: false };
        const loaded = loadConfig(deps, { configPath, projectDir: dir });
        for (const line of [...loaded.issues, ...loaded.located]) {
          expect(line).not.toMatch(/\n/);
          expect(line).not.toMatch(/undefined \(reading|is not a function|native code/);
        }
        expect(Object.getPrototypeOf(loaded.value.sinks)).toBe(Object.prototype);
        for (const [name, sink] of Object.entries(loaded.value.sinks)) {
          expect(sink.name).toBe(name);
          expect(typeof sink.type).toBe("string");
        }
        expect(loaded.secrets.every((s) => typeof s === "string")).toBe(true);
        const mask = configSecrets(configPath, true, env);
        expect(mask.broken).toBeUndefined();
        if (asText(user).includes("${SECRET}"))
          expect(scrub(`${SECRET} ${asText(user)}`, mask.pieces)).not.toContain(SECRET);
      }),
      { numRuns: 200 },
    );
  }, 60_000); // 200 pairs of files written and read: ~1 s alone, more on a machine CI shares
});
