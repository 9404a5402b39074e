import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { dispatch } from "../../src/delivery/dispatch.js";
import { queueRunFallbacks } from "../../src/delivery/fallback.js";
import { findProgram } from "../../src/sinks/find-program.js";
import type { RunAttempt } from "../../src/journal/run-attempt.js";
import { route } from "../../src/pipeline/route.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const hook = (extra: Record<string, unknown> = {}) => ({
  type: "webhook",
  url: "https://example.test/in",
  ...extra,
});

// The banner's send failed in the run itself.
const failed: RunAttempt = {
  sink: "banner",
  type: "desktop",
  target: "desktop",
  outcome: "failed",
  ok: false,
  ms: 1,
  code: "SINK_UNAVAILABLE",
  error: "no D-Bus session bus here",
};

describe("queueRunFallbacks", () => {
  it("queues each fallback once, marked fallbackOf, but not one this run sends to anyway", async () => {
    const sinks = {
      banner: { type: "desktop", fallback: ["mail", "team"] },
      team: hook(),
      mail: hook({ events: [] }),
    };
    const box = await outboxEnv(sinks);
    const notification = sampleNotification();
    const { deliveries } = route(notification, validateConfig({ sinks }, {}).value);
    const sent: RunAttempt = {
      sink: "team",
      type: "webhook",
      target: "x",
      outcome: "delivered",
      ok: true,
      ms: 1,
    };
    const outcomes = await queueRunFallbacks([failed, sent], deliveries, box);
    expect(outcomes).toEqual([{ ...failed, fallback: ["mail"], fallbackSkipped: ["team"] }, sent]);
    expect(await box.files("pending")).toMatchObject([
      { sinkName: "mail", fallbackOf: "banner", notification: { id: notification.id } },
    ]);
  });

  it("skips a target held for coalescing in this run: it gets the notification merged", async () => {
    const sinks = { banner: { type: "desktop", fallback: ["mail"] }, mail: hook() };
    const box = await outboxEnv(sinks);
    const notification = sampleNotification();
    const { deliveries } = route(notification, validateConfig({ sinks }, {}).value);
    const banner = deliveries.filter((d) => d.entry.name === "banner");
    const outcomes = await queueRunFallbacks([failed], banner, box, ["banner", "mail"]);
    expect(outcomes).toEqual([{ ...failed, fallbackSkipped: ["mail"] }]);
    expect(await box.files("pending")).toEqual([]);
  });
});

// The worker's run of a hook's event, banner first with its listener starting beside it: a
// daemon that answers Notify with an error is a failed banner, so its fallback is queued, never a
// banner logged delivered.
describe.runIf(process.platform === "linux")("a failing banner in the worker's run", () => {
  it("fails the banner and queues its fallback", async () => {
    const dbusMonitor = findProgram("dbus-monitor", process.env, process.platform);
    const bin = fakeBin([], { real: dbusMonitor ? { "dbus-monitor": dbusMonitor } : {} });
    const bus = await fakeNotificationBus({ failWith: "org.freedesktop.DBus.Error.Failed" });
    const sinks = { banner: { type: "desktop", fallback: ["mail"] }, mail: hook({ events: [] }) };
    const box = await outboxEnv(sinks);
    const env = { ...box.env, ...bin.env, ...bus.env };
    const deps = { ...box.deps, env, platform: "linux" as const, worker: true };
    const notification = sampleNotification();
    const { deliveries } = route(notification, validateConfig({ sinks }, {}).value);
    const outcomes = await dispatch(deliveries, {
      deps,
      budgetMs: 8_000,
      wait: false,
      secrets: [],
      configPath: box.configPath,
      whenQueued: "this-round",
    });
    expect(outcomes).toEqual([
      expect.objectContaining({
        sink: "banner",
        ok: false,
        code: "SINK_FAILED",
        fallback: ["mail"],
      }),
    ]);
    expect(await box.files("pending")).toMatchObject([
      { sinkName: "mail", fallbackOf: "banner", notification: { id: notification.id } },
    ]);
  });
});
