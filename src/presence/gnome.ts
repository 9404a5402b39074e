// GNOME (X11 or Wayland): Mutter's IdleMonitor over D-Bus gives the idle time. GNOME offers no
// focused-window query without an extension, so this probe answers idle only.
import type { Reading } from "./reading.js";
import { runProbeProgram, type ProbeRunOptions } from "./run-probe-program.js";
import { idleReading } from "./x11.js";

export async function probeMutterIdle(options: ProbeRunOptions): Promise<Reading> {
  const run = await runProbeProgram(
    "gdbus",
    [
      "call",
      "--session",
      "--dest",
      "org.gnome.Mutter.IdleMonitor",
      "--object-path",
      "/org/gnome/Mutter/IdleMonitor/Core",
      "--method",
      "org.gnome.Mutter.IdleMonitor.GetIdletime",
    ],
    options,
  );
  // The answer looks like "(uint64 12345,)": milliseconds.
  const value = /uint64 (\d+)/.exec(run.stdout)?.[1] ?? "";
  return idleReading("gdbus", run.ok ? value : "", 1000, run.problem, run.ms);
}
