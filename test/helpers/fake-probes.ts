import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";

/** The fake presence programs in test/fixtures/presence-bin. */
export type FakeProbeProgram =
  | "tmux"
  | "xdotool"
  | "xprop"
  | "xprintidle"
  | "gdbus"
  | "swaymsg"
  | "hyprctl"
  | "lsappinfo"
  | "ioreg"
  | "powershell.exe";

const FIXTURES = fileURLToPath(new URL("../fixtures/presence-bin/", import.meta.url));

// A temp PATH holding only the chosen fake probes and node; `calls()` lists their argv.
export function fakeProbes(
  programs: readonly FakeProbeProgram[],
  real: Record<string, string> = {},
) {
  const root = mkdtempSync(join(tmpdir(), "hook-notify-probes-"));
  const log = join(root, "calls.ndjson");
  writeFileSync(log, "");
  symlinkSync(process.execPath, join(root, "node"));
  for (const name of programs) symlinkSync(join(FIXTURES, name), join(root, name));
  for (const [name, target] of Object.entries(real)) symlinkSync(target, join(root, name));
  onTestFinished(() => {
    rmSync(root, { recursive: true, force: true });
  });
  return {
    dir: root,
    env: { PATH: root, FAKE_BIN_LOG: log } as Record<string, string>,
    calls: (): { program: string; args: string[] }[] =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { program: string; args: string[] }),
  };
}
