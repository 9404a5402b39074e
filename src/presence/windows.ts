// Windows and WSL: one PowerShell call reads the foreground window's process (GetForegroundWindow)
// and the idle time (GetLastInputInfo). The script is a constant: nothing from an event is in it.
import type { Reading } from "./reading.js";
import { runProbeProgram, type ProbeRunOptions } from "./run-probe-program.js";

/** Windows PowerShell takes a few hundred ms just to start. */
const POWERSHELL_TIMEOUT_MS = 5000;

const SCRIPT = [
  "$ErrorActionPreference = 'Stop'",
  "Add-Type -Namespace HookNotify -Name Presence -MemberDefinition @'",
  '[DllImport("user32.dll")] public static extern IntPtr GetForegroundWindow();',
  '[DllImport("user32.dll")] public static extern uint GetWindowThreadProcessId(IntPtr w, out uint p);',
  "[StructLayout(LayoutKind.Sequential)] public struct LastInput { public uint Size; public uint Time; }",
  '[DllImport("user32.dll")] public static extern bool GetLastInputInfo(ref LastInput i);',
  "'@",
  "$fg = [uint32]0",
  "[void][HookNotify.Presence]::GetWindowThreadProcessId([HookNotify.Presence]::GetForegroundWindow(), [ref]$fg)",
  "$li = New-Object HookNotify.Presence+LastInput",
  "$li.Size = 8",
  "[void][HookNotify.Presence]::GetLastInputInfo([ref]$li)",
  "$tick = [int64][Environment]::TickCount -band 0xffffffffL",
  "$idle = ($tick - [int64]$li.Time + 0x100000000L) % 0x100000000L",
  "$name = (Get-Process -Id $fg -ErrorAction SilentlyContinue).ProcessName",
  '"F`t$fg`t$idle`t$name"',
  "if ($env:HOOK_NOTIFY_PRESENCE_TREE -eq '1') { Get-CimInstance Win32_Process | ForEach-Object { \"P`t$($_.ProcessId)`t$($_.ParentProcessId)\" } }",
].join("\n");

/** Process names of terminals: on WSL the only way to tell that a terminal is in front. */
const TERMINALS = new Set([
  "windowsterminal",
  "openconsole",
  "conhost",
  "wezterm-gui",
  "alacritty",
  "mintty",
  "code",
]);

// On Windows itself the process table comes along, to match the foreground pid to ancestors.
export async function probePowerShell(
  options: ProbeRunOptions & { wsl: boolean },
): Promise<Reading & { parents?: Map<number, number> }> {
  const env = { ...options.env, HOOK_NOTIFY_PRESENCE_TREE: options.wsl ? "0" : "1" };
  const args = ["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", SCRIPT];
  const run = await runProbeProgram("powershell.exe", args, {
    ...options,
    env,
    timeoutMs: Math.max(options.timeoutMs ?? 0, POWERSHELL_TIMEOUT_MS),
  });
  const probe = "powershell";
  const lines = run.stdout.split(/\r?\n/).map((line) => line.split("\t"));
  const front = lines.find((fields) => fields[0] === "F");
  if (!run.ok || !front)
    return { probe, detail: `powershell: ${run.problem ?? "no answer"}`, ms: run.ms };
  const [, pidText = "", idleText = "", name = ""] = front;
  const idleSeconds = /^\d+$/.test(idleText) ? Math.round(Number(idleText) / 1000) : undefined;
  const pid = Number(pidText);
  const parents = new Map<number, number>();
  for (const [kind, child, parent] of lines) {
    if (kind === "P") parents.set(Number(child), Number(parent));
  }
  const activeName = name.trim().toLowerCase();
  const what = `foreground ${activeName || "window"} (pid ${pidText}), idle ${idleSeconds === undefined ? "unknown" : `${String(idleSeconds)} s`}`;
  return {
    probe,
    idleSeconds,
    ...(pid > 0 && !options.wsl ? { activePid: pid } : {}),
    ...(options.wsl && activeName ? { focused: TERMINALS.has(activeName), activeName } : {}),
    parents,
    detail: options.wsl ? `${what}; from WSL any terminal in front counts` : what,
    ms: run.ms,
  };
}
