// `doctor --deep` on Linux and the BSDs: a real test banner through notify-send, read back from
// the notification daemon (the id it returned; then closed by that id over D-Bus), so "notify-send
// runs, nothing appears" is told apart from "the daemon accepted nothing".
import { execFile } from "node:child_process";
import type { Deps } from "../deps.js";
import { fail, ok, warn, type CheckResult } from "../check-result.js";
import { holdListener, type ListenerHold } from "../sinks/banner-listener.js";
import { findProgram } from "../sinks/find-program.js";
import { inertText } from "../shown-text.js";

const CHECK = "desktop banner (deep)";
const DEST = "org.freedesktop.Notifications";
const PATH = "/org/freedesktop/Notifications";
/** How long the listener waits to hear the test banner close. */
const HEAR_SECONDS = 10;

type DeepDeps = Pick<Deps, "env" | "platform">;

interface Ran {
  code: number | string | null;
  stdout: string;
  stderr: string;
}

// Sends the banner, then asks the daemon its name and closes the banner by its id, which the
// worker's listener must hear (the log's close reasons and clicks depend on it).
export async function checkBannerDeep(deps: DeepDeps): Promise<CheckResult> {
  if (deps.platform === "darwin" || deps.platform === "win32")
    return ok(CHECK, "not checked: Linux and the BSDs only (notify-send and D-Bus)");
  const notifySend = findProgram("notify-send", deps.env, deps.platform);
  const gdbus = findProgram("gdbus", deps.env, deps.platform);
  if (!notifySend)
    return fail(
      CHECK,
      "notify-send not found",
      "Install libnotify-bin (Debian/Ubuntu) or libnotify.",
    );
  // The worker's listener, started first so that it hears the close (banner-listener.ts).
  const hold = await holdListener(deps);
  const sent = await run(notifySend, bannerArgs(), deps.env);
  const id = /^\s*(\d+)\s*$/m.exec(sent.stdout)?.[1];
  if (sent.code !== 0 || id === undefined || id === "0" || !gdbus) release(hold);
  if (sent.code !== 0 || id === undefined || id === "0") {
    const said = firstLine(sent.stderr) || `exit ${String(sent.code)}, no id printed`;
    return fail(
      CHECK,
      `the notification daemon accepted nothing (${said})`,
      "Start a notification daemon (dunst, mako, or your desktop's own) on this session's D-Bus.",
    );
  }
  if (!gdbus)
    return warn(
      CHECK,
      `banner #${id} accepted; not closed (gdbus not found), it expires by itself`,
      "Install gdbus (libglib2.0-bin) to have doctor --deep close the banner.",
    );
  const heard = "why" in hold ? undefined : hold.follow(id, { seconds: HEAR_SECONDS });
  const server = await run(gdbus, call("GetServerInformation"), deps.env);
  const name = /^\('([^']*)'/.exec(server.stdout)?.[1] ?? "the daemon";
  const closed = await run(gdbus, call("CloseNotification", id), deps.env);
  if (closed.code !== 0)
    return warn(
      CHECK,
      `banner #${id} accepted by ${name}, but closing it failed (${firstLine(closed.stderr)})`,
      "The daemon may not keep banners by id; it works for notifications, not for receipts.",
    );
  const shown = `banner #${id} shown by ${name}, then closed by its id`;
  const end = heard ? await heard : undefined;
  if (end?.ended === "closed") return ok(CHECK, `${shown}; heard closed: ${end.reason}`);
  const why = "why" in hold ? hold.why : (end?.reason ?? "not heard");
  return warn(
    CHECK,
    `${shown}, but the worker's listener did not hear it close (${inertText(why, "line")}): the log will show no clicks or close reasons`,
    "Install dbus-monitor: sudo apt install dbus-bin (Fedora: sudo dnf install dbus-tools).",
  );
}

// No banner to follow after all: the listener may go.
function release(hold: ListenerHold | { why: string }): void {
  if (!("why" in hold)) hold.release();
}

function bannerArgs(): string[] {
  return [
    "--print-id",
    "--app-name=hook-notify",
    "--expire-time=5000",
    "--",
    "hook-notify doctor --deep",
    "A test banner; it closes by itself.",
  ];
}

function call(method: string, ...args: string[]): string[] {
  return [
    "call",
    "--session",
    "--dest",
    DEST,
    "--object-path",
    PATH,
    "--method",
    `${DEST}.${method}`,
    ...args,
  ];
}

function run(program: string, args: string[], env: DeepDeps["env"]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(program, args, { env, timeout: 10_000, encoding: "utf8" }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number | string }).code ?? null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

function firstLine(text: string): string {
  return (text.trim().split("\n")[0] ?? "").slice(0, 200);
}
