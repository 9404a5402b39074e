// answered/ does not grow forever: markers older than the outbox's limit (no follow-up they could
// cancel is left) are removed, once a day, in one pass; newer markers keep cancelling. Real files.
import { mkdtempSync, readdirSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  answeredAt,
  pruneAnswers,
  recordAnswer,
  sessionKey,
} from "../../src/escalation/answers.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function state() {
  const home = mkdtempSync(join(tmpdir(), "hook-notify-prune-"));
  onTestFinished(() => {
    rmSync(home, { recursive: true, force: true });
  });
  const deps = { env: { XDG_STATE_HOME: home }, homedir: home, platform: "linux" as const };
  return { deps, dir: join(home, "hook-notify", "answered") };
}

// A marker written `ago` before `now` (its file time too, as a real write then would leave it).
function markerAt(deps: ReturnType<typeof state>["deps"], dir: string, id: string, at: number) {
  recordAnswer(deps, id, "prompt", at);
  const file = join(dir, `${sessionKey(id)}.prompt`);
  utimesSync(file, at / 1000, at / 1000);
}

describe("pruning answered/", () => {
  it("removes markers past the outbox's limit, keeps the rest, and does it once a day", async () => {
    const { deps, dir } = state();
    const now = Date.now();
    markerAt(deps, dir, "old-session", now - DAY - 2 * HOUR);
    markerAt(deps, dir, "recent-session", now - 2 * HOUR);

    expect(await pruneAnswers(deps, now, DAY)).toBe(1);
    expect(answeredAt(deps, sessionKey("old-session"), "prompt")).toBeUndefined();
    expect(answeredAt(deps, sessionKey("recent-session"), "prompt")).toBe(now - 2 * HOUR);

    // The same day: nothing is looked at, even a marker that is old by now.
    markerAt(deps, dir, "late-old-session", now - 3 * DAY);
    expect(await pruneAnswers(deps, now + HOUR, DAY)).toBe(0);
    expect(readdirSync(dir)).toContain(`${sessionKey("late-old-session")}.prompt`);

    // A day later both are past the limit.
    expect(await pruneAnswers(deps, now + DAY + 1, DAY)).toBe(2);
    expect(readdirSync(dir)).toEqual([".pruned"]);
  });

  it("keeps markers a longer outbox limit still needs (HOOK_NOTIFY_OUTBOX_MAX_AGE_HOURS)", async () => {
    const { deps, dir } = state();
    const now = Date.now();
    markerAt(deps, dir, "two-days", now - 2 * DAY);
    expect(await pruneAnswers(deps, now, 72 * HOUR)).toBe(0);
    expect(answeredAt(deps, sessionKey("two-days"), "prompt")).toBe(now - 2 * DAY);
  });

  it("does nothing where no marker was ever written", async () => {
    const { deps, dir } = state();
    expect(await pruneAnswers(deps, Date.now(), DAY)).toBe(0);
    expect(() => readdirSync(dir)).toThrow();
  });
});
