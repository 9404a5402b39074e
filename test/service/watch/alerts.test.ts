// service.alerts: yesterday's credits against the daily thresholds, from the fake's token rows.
import { describe, expect, it } from "vitest";
import { analyticsDay } from "../../../scripts/fake-service/analytics.mjs";
import { checkThresholds, fetchUsageAlert } from "../../../src/service/watch/alerts.js";
import { startFakeService } from "../../helpers/fake-service.js";

const day = {
  billable_tokens: 150_000,
  by_user: [
    { user_id: "u1", user_email: "ada@example.com", billable_tokens: 60_000 },
    { user_id: "u2", user_email: null, billable_tokens: 90_000 },
    { user_id: "u3", user_email: "cyd@example.com", billable_tokens: 10_000 },
  ],
};

describe("checkThresholds", () => {
  it.each([
    [{ creditsPerDay: 200_000 }, null],
    [{ creditsPerDay: 100_000 }, { organisation: { credits: 150_000, limit: 100_000 }, users: [] }],
    [
      { creditsPerUserPerDay: 50_000 },
      {
        users: [
          { user: "u2", credits: 90_000 },
          { user: "ada@example.com", credits: 60_000 },
        ],
        userLimit: 50_000,
      },
    ],
    [{ creditsPerDay: 150_000, creditsPerUserPerDay: 90_000 }, null],
  ])("%j → %j", (alerts, expected) => {
    const fact = checkThresholds("2026-11-24", day, alerts);
    expect(fact === null ? null : { ...fact, kind: undefined, date: undefined }).toEqual(
      expected === null ? null : { kind: undefined, date: undefined, ...expected },
    );
  });
});

describe("fetchUsageAlert", () => {
  it("reads yesterday's token row and its users from the service", async () => {
    const fake = await startFakeService();
    const date = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const expected = analyticsDay(date).tokens;
    const ctx = {
      service: { baseUrl: fake.url, apiKey: fake.apiKey },
      env: {},
      signal: AbortSignal.timeout(5000),
    };
    const fact = await fetchUsageAlert(ctx, date, { creditsPerDay: 1, creditsPerUserPerDay: 1 });
    expect(fact?.organisation?.credits).toBe(expected.billable_tokens);
    expect(fact?.users.length).toBe(expected.by_user.filter((u) => u.billable_tokens > 1).length);
    expect(fake.requests.at(-1)?.query).toMatchObject({ startDate: date, endDate: date });
  });
});
