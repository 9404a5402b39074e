// Follow-ups respect quiet hours: one due inside its sink's quiet hours is not queued, and says why.
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { planEscalations } from "../../src/escalation/plan.js";
import { withoutQuietFollowUps } from "../../src/pipeline/escalation-steps.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const config = validateConfig(
  {
    quietHours: "22:00-07:00",
    escalate: { afterSeconds: 600, to: ["phone", "night", "desktop"] },
    sinks: {
      desktop: { type: "desktop" },
      phone: { type: "chat", service: "ntfy", url: "https://ntfy.sh/topic-7f3k" },
      night: {
        type: "chat",
        service: "ntfy",
        url: "https://ntfy.sh/topic-9q2x",
        quietHours: "21:00-08:00",
      },
    },
  },
  {},
).value;

describe("withoutQuietFollowUps", () => {
  const planned = planEscalations(sampleNotification(), config, ["desktop"]);

  it("drops the follow-ups due in their sink's quiet hours and says why", () => {
    // 21:55 local + 10 min = 22:05: inside "night" (its own) and the desktop's (top level); the
    // remote "phone" has no quiet hours of its own, so the top-level ones do not apply to it.
    const now = new Date(2026, 10, 25, 21, 55).getTime();
    const { escalations, skipped } = withoutQuietFollowUps(planned, config, now);
    expect(escalations.map((e) => e.sinkName)).toEqual(["phone"]);
    expect(skipped).toEqual([
      {
        sink: "night",
        rule: "quiet-hours",
        reason: "follow-up due at 22:05, in quiet hours 21:00-08:00 (local time)",
      },
      {
        sink: "desktop",
        rule: "quiet-hours",
        reason: "follow-up due at 22:05, in quiet hours 22:00-07:00 (local time)",
      },
    ]);
  });

  it("keeps them all outside quiet hours", () => {
    const now = new Date(2026, 10, 25, 12, 0).getTime();
    expect(withoutQuietFollowUps(planned, config, now)).toEqual({
      escalations: planned,
      skipped: [],
    });
  });
});
