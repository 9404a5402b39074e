import { describe, expect, it } from "vitest";
import { likelyFix } from "../../src/commands/test-fix.js";
import { HookNotifyError } from "../../src/errors.js";
import { assertSuccess, type HttpResponse } from "../../src/http/post.js";
import { discord } from "../../src/sinks/chat/discord.js";
import { slack } from "../../src/sinks/chat/slack.js";

const answer = (status: number, text = ""): HttpResponse => ({ status, headers: {}, text });

function thrown(work: () => void): HookNotifyError {
  try {
    work();
  } catch (error) {
    if (error instanceof HookNotifyError) return error;
    throw error;
  }
  throw new Error("did not throw");
}

// The status the advice reads is the error's data, set where the answer arrives.
describe("HTTP errors carry their status as data", () => {
  it.each([
    [
      "generic",
      () => {
        assertSuccess(answer(404), { sinkName: "t", service: "Slack" });
      },
      404,
    ],
    [
      "Slack code",
      () => {
        slack.read(answer(404, "no_service"), "t");
      },
      404,
    ],
    [
      "Discord deleted",
      () => {
        discord.read(answer(404), "t");
      },
      404,
    ],
    [
      "Discord rate limit",
      () => {
        discord.read(answer(429), "t");
      },
      429,
    ],
  ] as const)("%s", (_name, work, status) => {
    const error = thrown(work);
    expect(error.code).toBe("SINK_HTTP_STATUS");
    expect(error.status).toBe(status);
  });
});

describe("advice reads fields, not message text", () => {
  it.each([
    [404, "slack", "create a new one in Slack's settings"],
    [401, undefined, "credentials"],
    [429, undefined, "rate limited"],
    [503, undefined, "try again later"],
  ] as const)("HTTP %s with a message that names no status", (status, service, fix) => {
    const failed = {
      type: service ? "chat" : "webhook",
      service,
      code: "SINK_HTTP_STATUS" as const,
    };
    const error = "t: the server said no.";
    expect(likelyFix({ ...failed, status, error })).toContain(fix);
    // And a message naming another status does not steer it.
    expect(likelyFix({ ...failed, status, error: "t: answered HTTP 302." })).toContain(fix);
  });
});

describe("likelyFix", () => {
  it.each([
    [
      {
        type: "chat",
        service: "slack",
        code: "SINK_HTTP_STATUS",
        status: 410,
        error: "t: Slack answered HTTP 410.",
      },
      "create a new one in Slack's settings",
    ],
    [
      {
        type: "chat",
        service: "teams",
        code: "SINK_HTTP_STATUS",
        status: 404,
        error: "t: Microsoft Teams answered HTTP 404.",
      },
      "create a new one in Microsoft Teams's settings",
    ],
    [
      {
        type: "webhook",
        code: "SINK_HTTP_STATUS",
        status: 404,
        error: "h: webhook answered HTTP 404.",
      },
      "check the url",
    ],
    [
      {
        type: "webhook",
        code: "SINK_HTTP_STATUS",
        status: 401,
        error: "h: webhook answered HTTP 401.",
      },
      "credentials",
    ],
    [
      {
        type: "webhook",
        code: "SINK_HTTP_STATUS",
        status: 503,
        error: "h: webhook answered HTTP 503.",
      },
      "try again later",
    ],
    [{ type: "webhook", code: "SINK_NETWORK", error: "h: could not reach" }, "proxy"],
    [{ type: "webhook", code: "SINK_TIMEOUT", error: "h: no answer" }, "slow or unreachable"],
    [{ type: "email", code: "SINK_AUTH", error: "m: SMTP x: 535" }, "smtp.user and smtp.pass"],
    [
      {
        type: "desktop",
        code: "SINK_UNAVAILABLE",
        error:
          "desktop: no D-Bus session bus here (DBUS_SESSION_BUS_ADDRESS=unset): /run/user/1000/bus: ENOENT; run inside the desktop session or set DBUS_SESSION_BUS_ADDRESS to its bus (often unix:path=$XDG_RUNTIME_DIR/bus)",
      },
      "run inside the desktop session or set DBUS_SESSION_BUS_ADDRESS",
    ],
    [
      {
        type: "desktop",
        code: "SINK_UNAVAILABLE",
        error:
          "desktop: no notification daemon on the D-Bus session bus (nobody owns org.freedesktop.Notifications): start the desktop's notification service (GNOME Shell, KDE Plasma, dunst, mako, xfce4-notifyd)",
      },
      "start the desktop's notification service",
    ],
    [
      {
        type: "desktop",
        code: "SINK_UNAVAILABLE",
        error:
          "desktop: no desktop session here (no D-Bus session bus or display; SSH or a container?). Use a chat or e-mail sink on this machine.",
      },
      "Use a chat or e-mail sink on this machine.",
    ],
  ] as const)("%j → …%s…", (failed, fix) => {
    expect(likelyFix(failed)).toContain(fix);
  });
});
