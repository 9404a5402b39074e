// The organisation in watch titles: meta.org_id, asked once a UTC day; a key that may not read
// analytics leaves the host in the titles and is not asked again that day.
import { describe, expect, it } from "vitest";
import type { ServiceContext } from "../../../src/service/client.js";
import { learnOrg, projectOf } from "../../../src/service/watch/org.js";
import type { WatchState } from "../../../src/service/watch/state.js";
import { startFakeService, type FakeService } from "../../helpers/fake-service.js";

const contextFor = (fake: FakeService): ServiceContext => ({
  service: { baseUrl: fake.url, apiKey: fake.apiKey },
  env: {},
  signal: AbortSignal.timeout(8000),
});
const analytics = (fake: FakeService) =>
  fake.requests.filter((r) => r.path.startsWith("/api/v1/analytics/")).length;

describe("learnOrg", () => {
  it("names the organisation from meta.org_id, asking once a day", async () => {
    const fake = await startFakeService();
    const state: WatchState = { version: 1 };
    const now = Date.now();
    await learnOrg(contextFor(fake), state, now);
    await learnOrg(contextFor(fake), state, now + 60_000);
    expect(projectOf(fake.url, state)).toBe("org-fake");
    expect(analytics(fake)).toBe(1);
    await learnOrg(contextFor(fake), state, now + 86_400_000);
    expect(analytics(fake)).toBe(2);
  });

  it("keeps the host for a key that may not read analytics, not asking again that day", async () => {
    const fake = await startFakeService({ role: "member" });
    const state: WatchState = { version: 1 };
    await learnOrg(contextFor(fake), state, Date.now());
    await learnOrg(contextFor(fake), state, Date.now());
    expect(projectOf(fake.url, state)).toBe(new URL(fake.url).host);
    expect(analytics(fake)).toBe(1);
  });
});
