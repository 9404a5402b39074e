import {
  chmodSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { onTestFinished } from "vitest";
import { ROOT } from "./run-bin.js";

/** A machine the preload makes the built binary believe it runs on. */
export interface FakeMachine {
  platform: "darwin" | "win32" | "linux";
  arch?: "arm64" | "x64";
  /** os.release(): WSL 2 says "…-microsoft-standard-WSL2". */
  release?: string;
  /** macOS: whether Rosetta 2's runtime file is there. */
  rosetta?: boolean;
}

const PRELOAD = fileURLToPath(new URL("../fixtures/platform/preload.cjs", import.meta.url));
const FAKE_PROGRAM = fileURLToPath(new URL("../fixtures/bin/terminal-notifier", import.meta.url));

export const WSL_RELEASE = "5.15.167.4-microsoft-standard-WSL2";

// The environment that makes the binary (and the fakes it starts) see `machine`.
export function machineEnv(machine: FakeMachine): Record<string, string> {
  return {
    NODE_OPTIONS: `--require "${PRELOAD}"`,
    FAKE_PLATFORM: machine.platform,
    ...(machine.arch ? { FAKE_ARCH: machine.arch } : {}),
    ...(machine.release ? { FAKE_OS_RELEASE: machine.release } : {}),
    ...(machine.rosetta === undefined ? {} : { FAKE_ROSETTA: machine.rosetta ? "1" : "0" }),
  };
}

/** How node-notifier's vendored terminal-notifier looks in the package copy. */
export type VendoredNotifier = "fake" | "not-executable" | "missing";

/** The path of the vendored terminal-notifier inside a package copy. */
export function vendoredPath(packageDir: string): string {
  const app = ["terminal-notifier.app", "Contents", "MacOS", "terminal-notifier"];
  return join(packageDir, "node_modules", "node-notifier", "vendor", "mac.noindex", ...app);
}

// A copy of the built package (bin/, dist/, assets/, templates) whose node_modules holds a
// node-notifier with the fake terminal-notifier in its vendor folder, and the real play-sound
// (linked: it resolves its own find-exec from the project). Returns bin/hook-notify.cjs.
export function packageCopy(notifier: VendoredNotifier = "fake"): { bin: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-pkg-"));
  onTestFinished(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  cpSync(join(ROOT, "bin"), join(dir, "bin"), { recursive: true });
  cpSync(join(ROOT, "dist"), join(dir, "dist"), { recursive: true });
  copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
  for (const name of ["assets", "hooks-templates"]) symlinkSync(join(ROOT, name), join(dir, name));
  const notifierDir = join(dir, "node_modules", "node-notifier");
  mkdirSync(notifierDir, { recursive: true });
  symlinkSync(join(ROOT, "node_modules", "play-sound"), join(dir, "node_modules", "play-sound"));
  writeFileSync(
    join(notifierDir, "package.json"),
    '{ "name": "node-notifier", "version": "10.0.1" }',
  );
  const program = vendoredPath(dir);
  if (notifier !== "missing") {
    mkdirSync(join(program, ".."), { recursive: true });
    symlinkSync(FAKE_PROGRAM, program);
    if (notifier === "not-executable") {
      rmSync(program);
      copyFileSync(FAKE_PROGRAM, program);
      chmodSync(program, 0o644);
    }
  }
  return { bin: join(dir, "bin", "hook-notify.cjs"), dir };
}
