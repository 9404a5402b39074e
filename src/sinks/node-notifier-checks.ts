// The desktop sink's node-notifier backend (macOS, Windows, WSL): the vendored program it starts
// must be there and executable. What macOS and Windows then do with the banner (notification
// permission, Focus, a registered app ID) cannot be read from here, so the detail says where to look.
import { join } from "node:path";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import { isExecutable, nodeNotifierVendorDir, terminalNotifierIn } from "./node-notifier-vendor.js";
import { isWsl } from "./platform.js";
import { fail, ok, type CheckResult } from "../check-result.js";

type NotifierDeps = Pick<Deps, "env" | "platform" | "osRelease">;

// undefined: node-notifier would fall back to notify-send (plain Linux); the caller checks that.
export function checkNodeNotifier(
  entry: SinkEntry,
  deps: NotifierDeps,
  vendor: string | undefined = nodeNotifierVendorDir(),
  executable: (path: string) => boolean = isExecutable,
): CheckResult | undefined {
  const name = `desktop (${entry.name})`;
  const appName = (entry.options as { appName?: string }).appName ?? "hook-notify";
  const reinstall =
    "Reinstall hook-notify (npm install -g hook-notify) so node-notifier is complete.";
  if (deps.platform === "darwin") {
    const program = vendor && terminalNotifierIn(vendor);
    if (!program || !executable(program))
      return fail(
        name,
        `terminal-notifier is missing or not executable (${program ?? "node-notifier not installed"})`,
        reinstall,
        { sink: entry.name },
      );
    return ok(
      name,
      "terminal-notifier (node-notifier); banners show only if System Settings → Notifications → terminal-notifier allows them and no Focus mode hides them",
    );
  }
  const windows = deps.platform === "win32";
  // WSL: node-notifier starts SnoreToast (a Windows .exe) through WSL's interop.
  if (!windows && !isWsl(deps)) return undefined;
  const program = vendor && join(vendor, "snoreToast", "snoretoast-x64.exe");
  if (!program || !executable(program)) {
    const fix =
      program && !windows
        ? `chmod +x ${join(vendor, "snoreToast")}/*.exe (npm unpacked them without the execute bit)`
        : reinstall;
    return fail(
      name,
      `SnoreToast is missing or not executable (${program ?? "node-notifier not installed"})`,
      fix,
      { sink: entry.name },
    );
  }
  return ok(
    name,
    `SnoreToast (node-notifier), toast app ID "${appName}"; if no toast shows, check Focus assist and that Windows allows notifications for it`,
  );
}
