// The `hook-notify watch` loop through the built binary against the local fake: however long the
// service (or the command line) asks it to wait, it never polls in a burst, and an interval it
// could not keep is refused before any request. Pass/fail is a request count, never a time.
import { describe, expect, it } from "vitest";
import { startFakeService } from "../helpers/fake-service.js";
import { runBin, tempHome } from "../helpers/run-bin.js";

async function setup() {
  const fake = await startFakeService({ apiKey: "watch-loop-key-0123456789" });
  const home = tempHome({ FACTORY_API_KEY: fake.apiKey });
  home.writeConfig({ service: { baseUrl: fake.url, apiKey: "${FACTORY_API_KEY}" } });
  return { fake, home };
}

describe("hook-notify watch (the loop)", () => {
  it.each([["3000000"], ["Fri, 31 Dec 2100 23:59:59 GMT"]])(
    "after a 429 with Retry-After %s, waits (cut to an hour, said so) instead of flooding",
    { timeout: 30_000 },
    async (retryAfter) => {
      const { fake, home } = await setup();
      fake.fail({ status: 429, retryAfter, times: Number.POSITIVE_INFINITY });
      const result = await runBin(["watch"], { env: home.env, killAfterMs: 5000, settle: false });
      // One poll is four requests (organisation, sessions, computers, controls); an overflowing timer made
      // hundreds in this window.
      expect(fake.requests.length).toBeGreaterThanOrEqual(1);
      expect(fake.requests.length).toBeLessThanOrEqual(6);
      expect(result.stderr).toContain("the longest wait between polls");
      expect(result.stderr).not.toContain("TimeoutOverflowWarning");
    },
  );

  it.each([["2200000"], ["1e10"], ["abc"], ["5"]])(
    "refuses --interval %s before any request",
    async (interval) => {
      const { fake, home } = await setup();
      const result = await runBin(["watch", "--interval", interval], {
        env: home.env,
        settle: false,
      });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(/--interval .*from 10 to 86400/);
      expect(fake.requests).toHaveLength(0);
    },
  );
});
