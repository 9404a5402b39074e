// `doctor --deep` on Linux and the BSDs: a real test banner through the notification service on
// D-Bus (sinks/desktop-bus.ts), read back from the daemon (the id it returned, its name and
// version; then closed by that id on the same connection), so "the banner was sent, nothing
// appears" is told apart from "the daemon accepted nothing".
import type { Deps } from "../deps.js";
import { fail, ok, warn, type CheckResult } from "../check-result.js";
import { holdListener, type ListenerHold } from "../sinks/banner-listener.js";
import { withNotificationBus, type NotificationBus } from "../sinks/desktop-bus.js";
import { inertText } from "../shown-text.js";

const CHECK = "desktop banner (deep)";
/** How long the listener waits to hear the test banner close. */
const HEAR_SECONDS = 10;

type DeepDeps = Pick<Deps, "env" | "platform">;

// Sends the banner, then asks the daemon its name and closes the banner by its id, which the
// worker's listener must hear (the log's close reasons and clicks depend on it).
export async function checkBannerDeep(deps: DeepDeps): Promise<CheckResult> {
  if (deps.platform === "darwin" || deps.platform === "win32")
    return ok(CHECK, "not checked: Linux and the BSDs only (the notification service on D-Bus)");
  // The worker's listener, started first so that it hears the close (banner-listener.ts).
  const hold = await holdListener(deps);
  try {
    return await withNotificationBus(deps.env, { place: CHECK }, (bus) => sendAndClose(bus, hold));
  } catch (error) {
    release(hold);
    return fail(
      CHECK,
      `the notification daemon accepted nothing (${inertText(firstLine((error as Error).message), "line")})`,
      "Start a notification daemon (dunst, mako, or your desktop's own) on this session's D-Bus.",
    );
  }
}

async function sendAndClose(
  bus: NotificationBus,
  hold: ListenerHold | { why: string },
): Promise<CheckResult> {
  const id = await bus.notify({
    appName: "hook-notify",
    icon: "",
    summary: "hook-notify doctor --deep",
    body: "A test banner; it closes by itself.",
    actions: [],
    hints: {},
    expireTimeoutMs: 5000,
  });
  const heard = "why" in hold ? undefined : hold.follow(String(id), { seconds: HEAR_SECONDS });
  const server = await bus.serverInformation().catch(() => undefined);
  const name = server ? inertText(`${server.name} ${server.version}`, "line") : "the daemon";
  try {
    await bus.close(id);
  } catch (error) {
    return warn(
      CHECK,
      `banner #${String(id)} accepted by ${name}, but closing it failed (${inertText(firstLine((error as Error).message), "line")})`,
      "The daemon may not keep banners by id; it works for notifications, not for receipts.",
    );
  }
  const shown = `banner #${String(id)} shown by ${name}, then closed by its id`;
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

function firstLine(text: string): string {
  return (text.trim().split("\n")[0] ?? "").slice(0, 200);
}
