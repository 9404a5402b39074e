import { describe, expect, it } from "vitest";
import { likelyFix, statusOf } from "../../src/commands/test-fix.js";

describe("statusOf", () => {
  it.each([
    ["team: Slack answered HTTP 404. The URL does not exist", 404],
    ["team: Slack answered 404 no_service: the webhook was removed", 404],
    ["chat: Discord answered 404: the webhook was deleted", 404],
    ["hook: could not reach http://x/… (ECONNREFUSED)", undefined],
    [undefined, undefined],
  ])("%s → %s", (message, status) => {
    expect(statusOf(message)).toBe(status);
  });
});

describe("likelyFix", () => {
  it.each([
    [
      {
        type: "chat",
        service: "slack",
        code: "SINK_HTTP_STATUS",
        error: "t: Slack answered HTTP 410.",
      },
      "create a new one in Slack's settings",
    ],
    [
      {
        type: "chat",
        service: "teams",
        code: "SINK_HTTP_STATUS",
        error: "t: Microsoft Teams answered HTTP 404.",
      },
      "create a new one in Microsoft Teams's settings",
    ],
    [
      { type: "webhook", code: "SINK_HTTP_STATUS", error: "h: webhook answered HTTP 404." },
      "check the url",
    ],
    [
      { type: "webhook", code: "SINK_HTTP_STATUS", error: "h: webhook answered HTTP 401." },
      "credentials",
    ],
    [
      { type: "webhook", code: "SINK_HTTP_STATUS", error: "h: webhook answered HTTP 503." },
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
          "desktop: notify-send not found. Install it (Debian/Ubuntu: apt install libnotify-bin).",
      },
      "Install it (Debian/Ubuntu: apt install libnotify-bin).",
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
