// A usage limit notifies once per reset window (policy.ts's "limit" rule over usage-limit.ts's
// marker), and plays no sound (route.ts asks the sound sink, which has none for it).
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import type { HookEvent } from "../../src/core/hook-event.js";
import { DEFAULT_LIMIT_WINDOW_SECONDS } from "../../src/core/defaults.js";
import { formatNotification } from "../../src/message/format.js";
import { applyPolicy } from "../../src/pipeline/policy.js";
import { route } from "../../src/pipeline/route.js";

const NOW = Date.parse("2026-11-22T12:00:00.000Z");
const HOOK = "https://example.com/hook";

function limitEvent(session: string, said?: string): HookEvent {
  const lastAssistantMessage = said ?? "You've hit your 5-hour limit · resets 3pm (UTC)";
  return {
    name: "StopFailure",
    error: "rate_limit",
    sessionId: session,
    lastAssistantMessage,
    raw: {},
  };
}

// The seen markers in memory, with a clock: what claimMarker does, minus the files.
function markers() {
  const seen = new Map<string, number>();
  const store = {
    now: NOW,
    claim: (name: string, windowMs: number): boolean => {
      const at = seen.get(name);
      if (at !== undefined && store.now - at < windowMs) return false;
      seen.set(name, store.now);
      return true;
    },
  };
  return store;
}

function decide(event: HookEvent, store: ReturnType<typeof markers>, sinks?: unknown) {
  const config = validateConfig(
    { dedupeSeconds: 0, sinks: sinks ?? { hook: { type: "webhook", url: HOOK } } },
    {},
  ).value;
  const notification = formatNotification(
    event,
    { project: "shop-api", projectDir: "/p", client: "claude-code" },
    { maxBodyLength: 300, id: "n-1", now: store.now },
  );
  const plan = route(notification, config);
  return applyPolicy(plan, event, config, {
    localMinutes: 12 * 60,
    claim: store.claim,
    coalesce: true,
  });
}

describe("the limit rule: one notification per session and reset window", () => {
  it("the same limit again in the window is held back, saying until when", () => {
    const store = markers();
    expect(decide(limitEvent("s1"), store).deliveries).toHaveLength(1);
    store.now += 30 * 60_000;
    const again = decide(limitEvent("s1", "You've hit your usage limit · resets 3pm (UTC)"), store);
    expect(again.deliveries).toEqual([]);
    expect(again.skipped).toEqual([
      {
        sink: "hook",
        rule: "limit",
        reason: "this usage limit was notified already; it lasts until 2026-11-22T15:00:00.000Z",
      },
    ]);
  });

  it("another session, or the next window (a later reset), is notified", () => {
    const store = markers();
    expect(decide(limitEvent("s1"), store).deliveries).toHaveLength(1);
    expect(decide(limitEvent("s2"), store).deliveries).toHaveLength(1);
    store.now = Date.parse("2026-11-22T15:30:00.000Z"); // past the reset: the next 3pm is tomorrow's
    expect(decide(limitEvent("s1"), store).deliveries).toHaveLength(1);
  });

  it("without a reset time, once in the default window", () => {
    const store = markers();
    const unsaid = limitEvent("s1", "API Error: Request rejected (429)");
    expect(decide(unsaid, store).deliveries).toHaveLength(1);
    store.now += (DEFAULT_LIMIT_WINDOW_SECONDS - 60) * 1000;
    expect(decide(unsaid, store).skipped).toMatchObject([{ rule: "limit" }]);
    store.now += 120_000;
    expect(decide(unsaid, store).deliveries).toHaveLength(1);
  });

  it("other failures are not held back by it", () => {
    const store = markers();
    const overloaded: HookEvent = { ...limitEvent("s1"), error: "overloaded" };
    expect(decide(overloaded, store).deliveries).toHaveLength(1);
    expect(decide(overloaded, store).deliveries).toHaveLength(1);
  });
});

describe("the sound sink and the quiet levels", () => {
  const sinks = (files?: Record<string, string>) => ({
    desktop: { type: "desktop", events: ["Notification", "StopFailure"] },
    sound: { type: "sound", events: ["Notification", "StopFailure"], ...(files ? { files } : {}) },
  });
  const notice: HookEvent = {
    name: "Notification",
    notificationType: "auth_success",
    message: "Claude Code login successful",
    raw: {},
  };

  it("a notice and a usage limit go to the banner only, and the log says why not the sound", () => {
    for (const [event, what] of [
      [notice, "a notice"],
      [limitEvent("s1"), "a usage limit"],
    ] as const) {
      const plan = decide(event, markers(), sinks());
      expect(plan.deliveries.map((d) => d.entry.name)).toEqual(["desktop"]);
      expect(plan.skipped).toEqual([
        { sink: "sound", reason: expect.stringContaining(`${what} plays no sound`) as unknown },
      ]);
    }
  });

  it("a sound named for the level plays; needs-you plays the shipped one", () => {
    const plan = decide(notice, markers(), sinks({ info: "/sounds/soft.wav" }));
    expect(plan.deliveries.map((d) => d.entry.name)).toEqual(["desktop", "sound"]);
    const prompt: HookEvent = { ...notice, notificationType: "permission_prompt" };
    expect(decide(prompt, markers(), sinks()).deliveries).toHaveLength(2);
  });
});
