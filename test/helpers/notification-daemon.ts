import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { findProgram } from "../../src/sinks/find-program.js";

// Debian's python3 has dbusmock; a pyenv `python3` first on PATH usually does not.
const PYTHON = "/usr/bin/python3";
const NAME = "org.freedesktop.Notifications";

/** One Notify call as the daemon received it over D-Bus. */
export interface NotifyCall {
  appName: string;
  summary: string;
  body: string;
  /** The "urgency" hint: 0 low, 1 normal, 2 critical; null when the sender set none. */
  urgency: number | null;
  /** Milliseconds; -1 means "server default". */
  expireTimeout: number;
  icon: string;
  /** The actions as sent: key, label, key, label, … */
  actions: string[];
}

export interface NotificationDaemon {
  /** The private bus address, also in env. */
  address: string;
  env: { DBUS_SESSION_BUS_ADDRESS: string };
  /** The Notify calls recorded so far, in order (org.freedesktop.DBus.Mock.GetCalls). */
  calls(): Promise<NotifyCall[]>;
  /** Polls calls() until there are at least `count` (for detached senders). */
  waitForCalls(count: number, timeoutMs?: number): Promise<NotifyCall[]>;
  /** The ids of the CloseNotification calls so far, in order. */
  closes(): Promise<number[]>;
  /** The daemon emits ActionInvoked(id, action), as a click on the banner does. */
  invokeAction(id: number, action: string): Promise<void>;
  /** The daemon emits NotificationClosed(id, reason) to everyone (as mako does), or only to
   * `destination` (as GNOME Shell and dunst send it to the banner's sender). */
  closeNotification(id: number, reason: number, destination?: string): Promise<void>;
  stop(): Promise<void>;
}

// Waits for the bus name, or prints the recorded Notify calls as JSON. dbus-python ships with dbusmock.
const CLIENT = `
import json, os, sys, time
import dbus
bus = dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
if sys.argv[1] == "invoke":
    mock = dbus.Interface(bus.get_object("${NAME}", "/org/freedesktop/Notifications"), "org.freedesktop.DBus.Mock")
    mock.EmitSignal("${NAME}", "ActionInvoked", "us", [dbus.UInt32(int(sys.argv[2])), sys.argv[3]])
    sys.exit(0)
if sys.argv[1] == "close":
    mock = dbus.Interface(bus.get_object("${NAME}", "/org/freedesktop/Notifications"), "org.freedesktop.DBus.Mock")
    id, reason = dbus.UInt32(int(sys.argv[2])), dbus.UInt32(int(sys.argv[3]))
    if len(sys.argv) < 5:
        mock.EmitSignal("${NAME}", "NotificationClosed", "uu", [id, reason])
        sys.exit(0)
    # A signal with a destination, sent from the daemon's own connection (dbusmock runs the code).
    mock.AddMethod("${NAME}", "TestCloseTo", "suu", "", "\\n".join([
        "import dbus.lowlevel",
        "m = dbus.lowlevel.SignalMessage('/org/freedesktop/Notifications', '${NAME}', 'NotificationClosed')",
        "m.set_destination(args[0])",
        "m.append(dbus.UInt32(args[1]), dbus.UInt32(args[2]))",
        "self.connection.send_message(m)",
    ]))
    dbus.Interface(bus.get_object("${NAME}", "/org/freedesktop/Notifications"), "${NAME}").TestCloseTo(sys.argv[4], id, reason)
    sys.exit(0)
if sys.argv[1] == "wait":
    deadline = time.monotonic() + float(sys.argv[2])
    while not bus.name_has_owner("${NAME}"):
        if time.monotonic() > deadline:
            sys.exit("${NAME} has no owner on the test bus")
        time.sleep(0.05)
    sys.exit(0)
mock = dbus.Interface(bus.get_object("${NAME}", "/org/freedesktop/Notifications"), "org.freedesktop.DBus.Mock")
if sys.argv[1] == "closes":
    print(json.dumps([int(args[0]) for _stamp, method, args in mock.GetCalls() if method == "CloseNotification"]))
    sys.exit(0)
calls = []
for _stamp, method, args in mock.GetCalls():
    if method != "Notify":
        continue
    hints = args[6]
    calls.append({
        "appName": str(args[0]), "icon": str(args[2]), "summary": str(args[3]), "body": str(args[4]),
        "urgency": int(hints["urgency"]) if "urgency" in hints else None,
        "expireTimeout": int(args[7]), "actions": [str(a) for a in args[5]],
    })
print(json.dumps(calls))
`;

/** What the real-daemon tests need, and which of it is missing here. */
export function notificationDaemonTools(env: NodeJS.ProcessEnv = process.env): {
  available: boolean;
  missing: string[];
} {
  const missing: string[] = [];
  if (process.platform !== "linux") return { available: false, missing: ["Linux"] };
  for (const program of ["dbus-daemon", "notify-send", "dbus-monitor"]) {
    if (!findProgram(program, env, process.platform)) missing.push(program);
  }
  if (!hasDbusmock()) missing.push(`${PYTHON} with dbusmock (python3-dbusmock)`);
  return { available: missing.length === 0, missing };
}

// For describe.runIf: dbus-daemon, notify-send and Debian's python3-dbusmock are installed.
export function isNotificationDaemonAvailable(): boolean {
  return notificationDaemonTools().available;
}

let dbusmockChecked: boolean | undefined;
function hasDbusmock(): boolean {
  if (dbusmockChecked !== undefined) return dbusmockChecked;
  try {
    execFileSync(PYTHON, ["-c", "import dbus, dbusmock"], { stdio: "ignore", timeout: 10_000 });
    dbusmockChecked = true;
  } catch {
    dbusmockChecked = false;
  }
  return dbusmockChecked;
}

// A private session bus (no service activation, so no installed daemon such as dunst can win the
// name) with dbusmock's notification_daemon template on it. Stopped when the test finishes.
// `capabilities` replaces the template's (which has no "actions").
export async function startNotificationDaemon(
  capabilities?: string[],
): Promise<NotificationDaemon> {
  const dir = mkdtempSync(join(tmpdir(), "hook-notify-bus-"));
  const children: ChildProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(children.splice(0).reverse().map(terminate));
    rmSync(dir, { recursive: true, force: true });
  };
  onTestFinished(stop);

  const config = join(dir, "bus.conf");
  writeFileSync(config, busConfig(dir));
  const bus = spawn("dbus-daemon", [`--config-file=${config}`, "--print-address", "--nofork"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(bus);
  const address = await firstLine(bus, 10_000);
  const env = { DBUS_SESSION_BUS_ADDRESS: address };
  const clientEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8", ...env };

  const parameters = capabilities
    ? ["-p", JSON.stringify({ capabilities: capabilities.join(" ") })]
    : [];
  const template = ["-m", "dbusmock", "--session", "--template", "notification_daemon"];
  const mock = spawn(PYTHON, [...template, ...parameters], {
    env: clientEnv,
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(mock);
  await Promise.race([
    runClient(["wait", "15"], clientEnv),
    exitedEarly(mock, "python3 -m dbusmock"),
  ]);

  const calls = async (): Promise<NotifyCall[]> =>
    JSON.parse(await runClient(["calls"], clientEnv)) as NotifyCall[];
  const waitForCalls = async (count: number, timeoutMs = 5_000): Promise<NotifyCall[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = await calls();
      if (seen.length >= count || Date.now() > deadline) return seen;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const closes = async (): Promise<number[]> =>
    JSON.parse(await runClient(["closes"], clientEnv)) as number[];
  const invokeAction = async (id: number, action: string): Promise<void> => {
    await runClient(["invoke", String(id), action], clientEnv);
  };
  const closeNotification = async (
    id: number,
    reason: number,
    destination?: string,
  ): Promise<void> => {
    const to = destination === undefined ? [] : [destination];
    await runClient(["close", String(id), String(reason), ...to], clientEnv);
  };
  return { address, env, calls, waitForCalls, closes, invokeAction, closeNotification, stop };
}

function busConfig(dir: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:dir=${dir}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
}

function runClient(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(PYTHON, ["-c", CLIENT, ...args], { env, timeout: 20_000 }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`dbus client ${args[0] ?? ""} failed: ${stderr || error.message}`));
      else resolve(stdout);
    });
  });
}

// The bus address dbus-daemon prints once it listens.
function firstLine(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      reject(new Error(`dbus-daemon printed no address in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const newline = out.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      resolve(out.slice(0, newline).trim());
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`dbus-daemon exited with ${code ?? "a signal"}: ${err}`));
    });
  });
}

// Rejects if the child dies before the race is won (never resolves otherwise).
function exitedEarly(child: ChildProcess, what: string): Promise<never> {
  let err = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  return new Promise((_resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => {
      reject(new Error(`${what} exited with ${code ?? "a signal"}: ${err.slice(-2000)}`));
    });
  });
}

function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
