import { describe, expect, it } from "vitest";
import type { HookEvent } from "../../src/core/hook-event.js";
import {
  describeReset,
  isRateLimitStop,
  limitWindow,
  resetFromText,
  resetTimeOf,
} from "../../src/message/usage-limit.js";
import { DEFAULT_LIMIT_WINDOW_SECONDS } from "../../src/core/defaults.js";
import { formatNotification } from "../../src/message/format.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";
import { fixtureJson } from "../pipeline/event-fixtures.js";

const NOW = Date.parse("2026-11-22T12:00:00.000Z"); // 13:00 in Berlin (CET)
const OPTIONS = { maxBodyLength: 300, id: "n-1", now: NOW };

function stop(fields: Partial<HookEvent> = {}): HookEvent {
  return { name: "StopFailure", error: "rate_limit", raw: {}, ...fields };
}

describe("isRateLimitStop", () => {
  it.each([
    [{ name: "StopFailure", error: "rate_limit" }, true],
    [{ name: "StopFailure", error: "overloaded" }, false],
    [{ name: "StopFailure" }, false],
    [{ name: "Stop", error: "rate_limit" }, false],
  ] as const)("%o → %s", (event, expected) => {
    expect(isRateLimitStop(event)).toBe(expected);
  });
});

describe("resetFromText: Claude Code's wording, read in the zone it names", () => {
  it.each([
    // Within a day: the next such time.
    ["You've hit your 5-hour limit · resets 3pm (Europe/Berlin)", "2026-11-22T14:00:00.000Z"],
    ["You've hit your limit · resets 3:30pm (UTC)", "2026-11-22T15:30:00.000Z"],
    // Already past today in that zone: tomorrow's.
    ["You've hit your 5-hour limit · resets 9am (UTC)", "2026-11-23T09:00:00.000Z"],
    ["resets 12am (UTC)", "2026-11-23T00:00:00.000Z"],
    ["resets 12pm (America/New_York)", "2026-11-22T17:00:00.000Z"],
    // A date (more than a day away), with and without a year; summer time in the zone.
    [
      "You've hit your weekly limit · resets Nov 25, 8pm (Europe/Berlin)",
      "2026-11-25T19:00:00.000Z",
    ],
    ["resets Jul 4, 2027, 9am (Europe/Berlin)", "2027-07-04T07:00:00.000Z"],
    // A date this year that has passed: next year's.
    ["resets Jan 3, 10am (UTC)", "2027-01-03T10:00:00.000Z"],
    // The 24-hour form.
    ["usage limit reached, resets at 14:00 (UTC)", "2026-11-22T14:00:00.000Z"],
  ])("%s → %s", (text, expected) => {
    expect(new Date(resetFromText(text, NOW) ?? 0).toISOString()).toBe(expected);
  });

  it.each([
    "Request rejected (429) · this may be a temporary capacity issue.",
    "resets soon",
    "resets 3 (UTC)",
    "resets 13pm (UTC)",
    "resets 3pm (Not/AZone)",
  ])("%s says no time", (text) => {
    expect(resetFromText(text, NOW)).toBeUndefined();
  });

  it("a time without a zone is the machine's own", () => {
    const at = resetFromText("resets 11:45pm", NOW) ?? 0;
    const local = new Date(at);
    expect([local.getHours(), local.getMinutes()]).toEqual([23, 45]);
    expect(at).toBeGreaterThan(NOW - 60_000);
    expect(at - NOW).toBeLessThanOrEqual(86_400_000);
  });
});

describe("resetTimeOf", () => {
  it("reads the last message first, to the next whole minute", () => {
    const event = stop({ lastAssistantMessage: "You've hit your 5-hour limit · resets 3pm (UTC)" });
    expect(new Date(resetTimeOf(event, NOW) ?? 0).toISOString()).toBe("2026-11-22T15:00:00.000Z");
  });

  it("a field of the payload (epoch seconds, ms or ISO) wins over the text", () => {
    const seconds = Date.parse("2026-11-22T16:00:00Z") / 1000;
    for (const value of [seconds, seconds * 1000, "2026-11-22T16:00:00Z", String(seconds)]) {
      const event = stop({ raw: { resets_at: value }, lastAssistantMessage: "resets 3pm (UTC)" });
      expect(new Date(resetTimeOf(event, NOW) ?? 0).toISOString()).toBe("2026-11-22T16:00:00.000Z");
    }
  });

  it("a Retry-After counts from now", () => {
    const event = stop({ retryAfterSeconds: 90 });
    expect(resetTimeOf(event, NOW)).toBe(NOW + 120_000); // 90 s, to the next minute
  });

  it("nothing said, nothing guessed", () => {
    expect(resetTimeOf(stop({ errorDetails: "429 Too Many Requests" }), NOW)).toBeUndefined();
  });
});

describe("describeReset: the person's local time", () => {
  const now = new Date(2026, 10, 22, 9, 30).getTime(); // a Sunday
  it.each([
    [new Date(2026, 10, 22, 14, 0), "resets at 14:00"],
    [new Date(2026, 10, 22, 9, 35), "resets at 09:35"],
    [new Date(2026, 10, 23, 2, 5), "resets tomorrow at 02:05"],
    [new Date(2026, 10, 25, 20, 0), "resets Wed at 20:00"],
    [new Date(2026, 11, 8, 14, 0), "resets on 8 Dec at 14:00"],
  ])("%s → %s", (at, expected) => {
    expect(describeReset(at.getTime(), now)).toBe(expected);
  });
});

describe("limitWindow: one notification per session, kind and reset", () => {
  const event = { name: "StopFailure" };
  const notification = {
    client: "claude-code",
    sessionId: "s1",
    resetsAt: "2026-11-22T15:00:00.000Z",
  };

  it("the same reset is the same marker; another reset, session or kind is another", () => {
    const marker = limitWindow(event, notification).marker;
    expect(limitWindow(event, { ...notification }).marker).toBe(marker);
    expect(
      limitWindow(event, { ...notification, resetsAt: "2026-11-22T20:00:00.000Z" }).marker,
    ).not.toBe(marker);
    expect(limitWindow(event, { ...notification, sessionId: "s2" }).marker).not.toBe(marker);
    const quota = { name: "Notification", notificationType: "quota_auto_resume_fired" };
    expect(limitWindow(quota, notification).marker).not.toBe(marker);
  });

  it("without a reset, the default window, named in the marker for the sweep", () => {
    const window = limitWindow(event, { ...notification, resetsAt: undefined });
    expect(window.seconds).toBe(DEFAULT_LIMIT_WINDOW_SECONDS);
    expect(window.marker).toMatch(
      new RegExp(`^lim-[0-9a-f]+-${String(DEFAULT_LIMIT_WINDOW_SECONDS)}$`),
    );
    expect(window.reason).toContain("did not say when it resets");
  });
});

describe("the other clients' rate limits", () => {
  // OpenCode 1.18.33's session.error (captured: an APIError with its HTTP status and headers),
  // here with the status and Retry-After of a 429. Kilo's plugin sends the same bus event.
  it("OpenCode and Kilo: an APIError with HTTP 429 is a usage limit, resetting after its Retry-After", () => {
    const captured = fixtureJson("opencode/session.error.json");
    const properties = captured.properties as { error: { data: Record<string, unknown> } };
    const data = properties.error.data;
    const limited = {
      ...captured,
      properties: {
        ...properties,
        error: {
          ...properties.error,
          data: { ...data, statusCode: 429, responseHeaders: { "retry-after": "3600" } },
        },
      },
    };
    for (const client of ["opencode", "kilo"]) {
      const event = parseEvent(JSON.stringify(limited), client);
      if ("ignored" in event) throw new Error("ignored");
      expect(event).toMatchObject({ name: "StopFailure", error: "rate_limit" });
      const n = formatNotification(event, { project: "p", projectDir: "/p", client }, OPTIONS);
      expect(n).toMatchObject({ level: "limit", resetsAt: "2026-11-22T13:00:00.000Z" });
    }
    // The captured 400 stays a failure.
    const failed = parseEvent(JSON.stringify(captured), "opencode");
    expect(failed).toMatchObject({ name: "StopFailure", error: "APIError" });
  });
});
