import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { type Config } from "../../src/core/config.js";
import type { EventName } from "../../src/core/hook-event.js";
import { route } from "../../src/pipeline/route.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const HOOK = "https://example.com/hook";

// A config with one sink of each routing shape.
function config(extra: Record<string, unknown> = {}): Config {
  const checked = validateConfig(
    {
      sinks: {
        everything: { type: "desktop" },
        stops: { type: "sound", events: ["Stop", "SubagentStop"] },
        failures: { type: "webhook", url: HOOK, when: "failure" },
        failureAlways: {
          type: "webhook",
          url: HOOK,
          events: ["StopFailure", "SessionEnd"],
          when: "always",
        },
        permissions: { type: "desktop", events: ["PermissionRequest", "Notification"] },
        off: { type: "desktop", enabled: false },
      },
      ...extra,
    },
    {},
  );
  expect(checked.issues).toEqual([]);
  return checked.value;
}

function plan(event: EventName, failure: boolean, cfg = config()) {
  return route(sampleNotification({ event, failure }), cfg);
}

describe("route", () => {
  it.each<[EventName, boolean, string[]]>([
    ["Notification", false, ["everything", "permissions"]],
    ["Stop", false, ["everything", "stops"]],
    ["SubagentStop", false, ["everything", "stops"]],
    ["SessionEnd", false, ["everything", "failureAlways"]],
    ["SessionEnd", true, ["everything", "failures", "failureAlways"]],
    // StopFailure is a default event: a sink without `events` gets it, `when: failure` too.
    ["StopFailure", true, ["everything", "failures", "failureAlways"]],
    ["PermissionRequest", false, ["permissions"]],
  ])("%s (failure: %s) goes to %j", (event, failure, sinks) => {
    expect(plan(event, failure).deliveries.map((d) => d.entry.name)).toEqual(sinks);
  });

  it("says why each other sink was skipped", () => {
    expect(plan("Stop", false).skipped).toEqual([
      { sink: "failures", reason: "not a failure (when: failure)" },
      { sink: "failureAlways", reason: "Stop is not in its events" },
      { sink: "permissions", reason: "Stop is not in its events" },
      { sink: "off", reason: "sink turned off (enabled: false)" },
    ]);
  });

  it("checks the event before when: failure (a sink whose events omit StopFailure never sees it)", () => {
    const cfg = config({
      sinks: { failures: { type: "webhook", url: HOOK, when: "failure", events: ["SessionEnd"] } },
    });
    expect(plan("StopFailure", true, cfg).skipped).toContainEqual({
      sink: "failures",
      reason: "StopFailure is not in its events",
    });
  });

  it("hands each delivery the notification, its entry and its sink", () => {
    const notification = sampleNotification({ event: "SessionEnd", failure: true });
    const [delivery] = route(notification, config()).deliveries;
    expect(delivery!.notification).toBe(notification);
    expect(delivery!.entry).toMatchObject({ name: "everything", type: "desktop" });
    expect(delivery!.sink.type).toBe("desktop");
  });

  it("sends nothing when hook-notify is turned off", () => {
    const result = plan("SessionEnd", true, config({ enabled: false }));
    expect(result.deliveries).toEqual([]);
    expect(result.skipped).toHaveLength(6);
    expect(new Set(result.skipped.map((s) => s.reason))).toEqual(
      new Set(["hook-notify is turned off (enabled: false)"]),
    );
  });

  it("sends nothing with no sinks", () => {
    const empty = validateConfig({ sinks: {} }, {}).value;
    expect(plan("Stop", false, empty)).toEqual({ deliveries: [], skipped: [] });
  });

  it("skips an entry whose type has no sink", () => {
    const cfg = config();
    const entry = { ...cfg.sinks["everything"]!, name: "pager", type: "pager" };
    const result = plan("Stop", false, { ...cfg, sinks: { pager: entry } });
    expect(result).toEqual({
      deliveries: [],
      skipped: [{ sink: "pager", reason: "unknown type pager" }],
    });
  });
});
