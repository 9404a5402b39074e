// What the desktop and sound sinks need to know about the machine beyond process.platform: WSL,
// Rosetta, where Windows PowerShell is, and how long the hook watches a program it started.
import { existsSync } from "node:fs";
import type { Deps } from "../deps.js";
import { findProgram } from "./find-program.js";

type MachineDeps = Pick<Deps, "env" | "platform" | "arch" | "osRelease">;

/** Rosetta 2's runtime; `pgrep oahd` is no proof (oahd runs on macOS 11.5+ without Rosetta). */
export const ROSETTA_RUNTIME = "/Library/Apple/usr/share/rosetta/rosetta";

/** Windows PowerShell 5.1 where every Windows 10 and 11 install has it (pwsh 7 has no WinRT). */
const WINDOWS_POWERSHELL = "System32\\WindowsPowerShell\\v1.0\\powershell.exe";
const WSL_POWERSHELL = "/mnt/c/Windows/System32/WindowsPowerShell/v1.0/powershell.exe";

// WSL: Node reports Linux; the kernel release (or WSL's own variables) says where it runs.
export function isWsl(deps: Pick<MachineDeps, "env" | "platform" | "osRelease">): boolean {
  if (deps.platform !== "linux") return false;
  if (deps.env.WSL_DISTRO_NAME || deps.env.WSL_INTEROP) return true;
  return /microsoft|wsl/i.test(deps.osRelease ?? "");
}

// x86_64 programs (node-notifier's terminal-notifier) run on Intel Macs, under an x64 Node (which
// is Rosetta already), and on Apple Silicon only with Rosetta 2 installed.
export function canRunIntel(deps: Pick<MachineDeps, "arch">): boolean {
  if (deps.arch === "x64") return true;
  return existsSync(ROSETTA_RUNTIME);
}

// powershell.exe on PATH, else where Windows keeps it (WSL: through /mnt/c and interop).
export function findPowerShell(deps: MachineDeps): string | undefined {
  const onPath = findProgram("powershell.exe", deps.env, deps.platform);
  if (onPath) return onPath;
  if (deps.platform === "win32") {
    const root = deps.env.SystemRoot ?? deps.env.SYSTEMROOT ?? "C:\\Windows";
    return findProgram(`${root}\\${WINDOWS_POWERSHELL}`, deps.env, deps.platform);
  }
  return isWsl(deps) ? findProgram(WSL_POWERSHELL, deps.env, deps.platform) : undefined;
}

// The environment for a Windows program: our variables added, and on WSL named in WSLENV,
// since WSL passes a Linux variable to a Windows process only when WSLENV lists it.
export function windowsEnv(
  env: Deps["env"],
  vars: Readonly<Record<string, string>>,
  wsl: boolean,
): Record<string, string | undefined> {
  const next: Record<string, string | undefined> = { ...env, ...vars };
  if (wsl) {
    const names = [env.WSLENV, ...Object.keys(vars)].filter((name) => !!name);
    next.WSLENV = names.join(":");
  }
  return next;
}

// The PowerShell arguments for one of our fixed scripts: -EncodedCommand (UTF-16LE, base64)
// needs no quoting, and an execution policy (AllSigned) governs script files, not commands.
export function powerShellArgs(script: string): string[] {
  return [
    "-NoProfile",
    "-NonInteractive",
    "-NoLogo",
    "-EncodedCommand",
    Buffer.from(script, "utf16le").toString("base64"),
  ];
}

const SETTLE_DEFAULTS = { desktop: 500, sound: 200 } as const;

// How long the hook watches a detached notifier or player for a fast failure before it goes on
// (then it is logged "started"). HOOK_NOTIFY_SETTLE_MS sets both (0 to 10000).
export function settleMs(kind: keyof typeof SETTLE_DEFAULTS, env: Deps["env"]): number {
  const raw = env.HOOK_NOTIFY_SETTLE_MS;
  const value = raw === undefined || raw.trim() === "" ? Number.NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 && value <= 10_000 ? value : SETTLE_DEFAULTS[kind];
}
