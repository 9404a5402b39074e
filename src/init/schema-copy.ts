// The config's JSON Schema beside the config file, so an editor validates it offline and the
// `$schema` reference survives a node upgrade or a version manager switch (an absolute path into a
// global node_modules would not). init writes it; install refreshes it where a config folder is.
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { findPackageRoot } from "../settings/load-template.js";

/** The copy's file name, beside config.json. */
export const SCHEMA_FILE = "config.schema.json";

/** What a config file's "$schema" says: the copy beside it. */
export const SCHEMA_REF = `./${SCHEMA_FILE}`;

// Writes (or refreshes) the copy beside `configFile`; returns its path. Unchanged text is left
// alone; a new one goes in by rename, so an editor never reads half a file.
export async function writeSchemaCopy(configFile: string): Promise<string> {
  const target = join(dirname(configFile), SCHEMA_FILE);
  const text = await readFile(join(findPackageRoot(), "schema", SCHEMA_FILE), "utf8");
  const current = await readFile(target, "utf8").catch(() => undefined);
  if (current === text) return target;
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  const temporary = `${target}.${String(process.pid)}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 }); // as every file in the folder
  await rename(temporary, target);
  return target;
}

// install's refresh: only where the person already has a config folder (install creates none).
export async function refreshSchemaCopy(configFile: string): Promise<void> {
  if (existsSync(dirname(configFile))) await writeSchemaCopy(configFile);
}
