// A hook that hands its event to the worker stores the variables the pipeline reads (HOOK_ENV_KEYS)
// in the event entry; the worker runs it with those. A variable src/ reads that is in neither list
// would silently take the worker's value instead of the hook's: this test finds it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOK_ENV_KEYS, WORKER_OWN_ENV_KEYS, hookEnvFor } from "../../src/link/hook-env.js";
import { ROOT } from "../helpers/run-bin.js";

// Set by hook-notify for the programs it starts (PowerShell reads them), not read from the hook.
const FOR_CHILDREN = new Set([
  "HOOK_NOTIFY_TITLE",
  "HOOK_NOTIFY_BODY",
  "HOOK_NOTIFY_LONG",
  "HOOK_NOTIFY_APP_ID",
  "HOOK_NOTIFY_SOUND",
]);
// Read only by commands a person runs (doctor, install, watch), never on the hook path.
const COMMANDS_ONLY = ["commands", "doctor", "init", "settings", "service", "approve"];

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe("the variables a handed-over event carries", () => {
  it("every variable the hook's pipeline reads is carried, or named as the worker's own", () => {
    const src = join(ROOT, "src");
    const read = new Set<string>();
    for (const file of sources(src)) {
      const top = file.slice(src.length + 1).split("/")[0] ?? "";
      if (COMMANDS_ONLY.includes(top)) continue;
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/\benv(?:\.|\["|\?\.)([A-Za-z_][A-Za-z0-9_]*)/g))
        read.add(match[1] as string);
    }
    const known = new Set([...HOOK_ENV_KEYS, ...WORKER_OWN_ENV_KEYS, ...FOR_CHILDREN]);
    const missing = [...read].filter(
      (name) => /^[A-Z_]|^container$|^Path$/.test(name) && !known.has(name),
    );
    expect(missing).toEqual([]);
    expect(read.size).toBeGreaterThan(20); // the scan found the reads
  });

  it("the worker runs it with the hook's values, and without the ones the hook did not have", () => {
    const env = hookEnvFor(
      {
        PATH: "/worker/bin",
        DISPLAY: ":1",
        TMUX: "/tmp/tmux",
        SLACK_URL: "kept",
        HTTPS_PROXY: "p",
      },
      { PATH: "/hook/bin", DISPLAY: ":9", NOT_CARRIED: "x" },
    );
    expect(env).toEqual({
      PATH: "/hook/bin",
      DISPLAY: ":9",
      SLACK_URL: "kept",
      HTTPS_PROXY: "p",
    });
  });

  it("carries no proxy (it may hold a password) and no webhook secret", () => {
    for (const name of WORKER_OWN_ENV_KEYS) expect(HOOK_ENV_KEYS).not.toContain(name);
  });
});
