// macOS: the frontmost application's pid from `lsappinfo` (no Accessibility or Automation
// permission needed) and HIDIdleTime (nanoseconds) from `ioreg`.
import type { Reading } from "./reading.js";
import { runProbeProgram, type ProbeRunOptions } from "./run-probe-program.js";
import { idleReading } from "./x11.js";

export async function probeLsappinfo(options: ProbeRunOptions): Promise<Reading> {
  const front = await runProbeProgram("lsappinfo", ["front"], options);
  const asn = /ASN:[0-9a-fx-]+:/i.exec(front.stdout)?.[0];
  if (!front.ok || !asn) {
    const why = front.ok ? "no frontmost application" : (front.problem ?? "failed");
    return { probe: "lsappinfo", detail: `lsappinfo: ${why}`, ms: front.ms };
  }
  const info = await runProbeProgram("lsappinfo", ["info", "-only", "pid", asn], options);
  const ms = front.ms + info.ms;
  const pid = Number(/"pid"\s*=\s*(\d+)/.exec(info.stdout)?.[1]);
  if (!info.ok || !(pid > 0))
    return { probe: "lsappinfo", detail: "lsappinfo: the frontmost application has no pid", ms };
  return { probe: "lsappinfo", activePid: pid, detail: `frontmost app is pid ${String(pid)}`, ms };
}

export async function probeIoreg(options: ProbeRunOptions): Promise<Reading> {
  const run = await runProbeProgram("ioreg", ["-c", "IOHIDSystem", "-d", "4", "-r"], options);
  const value = /"HIDIdleTime"\s*=\s*(\d+)/.exec(run.stdout)?.[1] ?? "";
  return idleReading("ioreg", run.ok ? value : "", 1e9, run.problem, run.ms);
}
