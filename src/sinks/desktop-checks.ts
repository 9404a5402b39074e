// The desktop sink: on macOS, Windows and WSL which program will show the banner, whether it can
// run here, and what Windows says about notifications (where a command can tell; on macOS nothing
// reads the notification permission, so the detail says where to look); on Linux and the BSDs
// whether the session bus answers and who owns org.freedesktop.Notifications (its name, version).
import { existsSync } from "node:fs";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import { backendFor, hasSessionBus } from "./desktop.js";
import { macRoute } from "./desktop-macos.js";
import { POWERSHELL_APP_ID } from "./desktop-windows.js";
import { findProgram } from "./find-program.js";
import { checkNodeNotifier } from "./node-notifier-checks.js";
import { findPowerShell, isWsl } from "./platform.js";
import { withNotificationBus } from "./desktop-bus.js";
import { inertText } from "../shown-text.js";
import { fail, ok, warn, type CheckResult } from "../check-result.js";

type DesktopDeps = Pick<Deps, "env" | "platform" | "arch" | "osRelease">;

// Runs a probe program (argv, no shell, 5 s at most) for its exit code and output; a program that
// cannot start counts as exit code 127.
async function probe(
  path: string,
  args: string[],
  env: Deps["env"],
): Promise<{ code: number; stdout: string }> {
  const { execFile } = await import("node:child_process");
  return new Promise((resolve) => {
    execFile(path, args, { env, timeout: 5000, windowsHide: true }, (error, stdout) => {
      const code = error ? (typeof error.code === "number" ? error.code : 127) : 0;
      resolve({ code, stdout });
    });
  });
}

// macOS: the architecture and Rosetta 2 (arch -x86_64 runs only with it), then the route.
export async function checkMacDesktop(entry: SinkEntry, deps: DesktopDeps): Promise<CheckResult> {
  const name = `desktop (${entry.name})`;
  const route = macRoute(deps);
  let machine = "Intel Mac (x86_64)";
  if (deps.arch !== "x64") {
    const arch = findProgram("arch", deps.env, deps.platform) ?? "/usr/bin/arch";
    const rosetta = (await probe(arch, ["-x86_64", "/usr/bin/true"], deps.env)).code === 0;
    machine = rosetta
      ? "Apple Silicon with Rosetta 2"
      : "Apple Silicon without Rosetta 2 (arch -x86_64 fails)";
  }
  if (route.program === "terminal-notifier") {
    return ok(
      name,
      `${machine}: terminal-notifier (node-notifier's, x86_64), osascript if it fails. Banners show only if System Settings → Notifications → terminal-notifier allows them and no Focus hides them`,
    );
  }
  if (!route.path) {
    return fail(name, `${machine}: osascript not found`, "Put /usr/bin back on PATH.", {
      sink: entry.name,
    });
  }
  return ok(
    name,
    `${machine}: osascript display notification (${route.why}). Banners are shown as Script Editor's: allow it in System Settings → Notifications, and in any Focus you use`,
  );
}

const TOASTS_KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\PushNotifications";
const APP_KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Notifications\\Settings";

// Windows and WSL: powershell.exe (through interop on WSL), and the two registry switches that
// turn toasts off: all of them (ToastEnabled) and those of the app ID (Enabled).
export async function checkWindowsDesktop(
  entry: SinkEntry,
  deps: DesktopDeps,
  fileExists: (path: string) => boolean = existsSync,
): Promise<CheckResult> {
  const name = `desktop (${entry.name})`;
  const appId = (entry.options as { appId?: string }).appId ?? POWERSHELL_APP_ID;
  const wsl = isWsl(deps);
  const interop =
    fileExists("/proc/sys/fs/binfmt_misc/WSLInterop") ||
    fileExists("/proc/sys/fs/binfmt_misc/WSLInterop-late");
  if (wsl && !interop) {
    return fail(
      name,
      "WSL without Windows interop: powershell.exe cannot run from here",
      "Set [interop] enabled=true in /etc/wsl.conf, then wsl --shutdown.",
      { sink: entry.name },
    );
  }
  const powershell = findPowerShell(deps);
  if (!powershell) {
    return fail(
      name,
      "powershell.exe not found",
      wsl
        ? "Add the Windows PATH back ([interop] appendWindowsPath=true in /etc/wsl.conf)."
        : "Windows PowerShell 5.1 ships with Windows: check PATH and %SystemRoot%.",
      { sink: entry.name },
    );
  }
  const route = `${wsl ? "WSL → " : ""}${powershell} shows a toast under app ID ${appId}`;
  const reg = findProgram("reg.exe", deps.env, deps.platform);
  if (!reg)
    return ok(name, `${route}. If none shows: Settings → System → Notifications, and Focus assist`);
  const global = await probe(reg, ["query", TOASTS_KEY, "/v", "ToastEnabled"], deps.env);
  if (/ToastEnabled\s+REG_DWORD\s+0x0\b/.test(global.stdout)) {
    return fail(
      name,
      `${route}, but Windows notifications are turned off`,
      "Turn them on: Settings → System → Notifications.",
      { sink: entry.name },
    );
  }
  const app = await probe(reg, ["query", `${APP_KEY}\\${appId}`, "/v", "Enabled"], deps.env);
  if (/Enabled\s+REG_DWORD\s+0x0\b/.test(app.stdout)) {
    return fail(
      name,
      `${route}, but notifications from that app are turned off`,
      "Turn it on: Settings → System → Notifications (Windows PowerShell).",
      { sink: entry.name },
    );
  }
  return ok(
    name,
    `${route}; notifications are on. Focus assist (Do not disturb) can still hold toasts back`,
  );
}

// The route the desktop sink takes here, checked the way the sink will run it.
export async function checkDesktop(entry: SinkEntry, deps: DesktopDeps): Promise<CheckResult> {
  const name = `desktop (${entry.name})`;
  const backend = backendFor(entry.options as { backend: "auto" }, deps);
  if (backend === "macos" || backend === "osascript") return checkMacDesktop(entry, deps);
  if (backend === "powershell") return checkWindowsDesktop(entry, deps);
  if (backend === "node-notifier") {
    const notifier = checkNodeNotifier(entry, deps);
    if (notifier) return notifier;
  }
  if (backend === "node-notifier") return checkNotifySendProgram(name, entry, deps);
  // The notification service over D-Bus: the session bus answers, and who owns the name.
  let server: { name: string; version: string };
  try {
    server = await withNotificationBus(deps.env, { place: name }, (bus) => bus.serverInformation());
  } catch (error) {
    return fail(
      name,
      `no notification service answers on the session bus (${inertText((error as Error).message, "line")})`,
      "Run where a desktop session is (a notification daemon: dunst, mako, or your desktop's own), or use a chat or email sink on this machine.",
      { sink: entry.name },
    );
  }
  const daemon = `the session bus answers; org.freedesktop.Notifications is ${inertText(`${server.name} ${server.version}`, "line")}`;
  // The worker's listener learns a banner's click and close (banner-listener.ts).
  const focusSeconds = (entry.options as { focusSeconds?: number }).focusSeconds;
  if (focusSeconds !== 0 && !findProgram("dbus-monitor", deps.env, deps.platform))
    return warn(
      name,
      `${daemon}, but no dbus-monitor: banners go without a click action, and the log cannot tell how they ended`,
      "Install dbus-monitor: sudo apt install dbus-bin (Fedora: sudo dnf install dbus-tools)",
    );
  return ok(name, daemon);
}

// node-notifier on Linux and the BSDs starts notify-send itself.
function checkNotifySendProgram(name: string, entry: SinkEntry, deps: DesktopDeps): CheckResult {
  const path = findProgram("notify-send", deps.env, deps.platform);
  if (!path) {
    return fail(
      name,
      "notify-send is not on PATH (node-notifier runs it here)",
      'Install it: sudo apt install libnotify-bin (Fedora: sudo dnf install libnotify), or drop "backend": "node-notifier"',
      { sink: entry.name },
    );
  }
  if (!hasSessionBus(deps.env)) {
    return fail(
      name,
      `${path}, but no D-Bus session bus or display (SSH or a container?)`,
      "Run where a desktop session is, or use a chat or email sink on this machine.",
      { sink: entry.name },
    );
  }
  return ok(name, `${path} with a session bus (node-notifier)`);
}
