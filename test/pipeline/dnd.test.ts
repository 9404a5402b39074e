import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import type { DndMode } from "../../src/core/config.js";
import { applyDnd, dndMatters } from "../../src/pipeline/dnd.js";
import type { PolicyPlan } from "../../src/pipeline/policy.js";
import { route } from "../../src/pipeline/route.js";
import type { DndReading } from "../../src/presence/dnd.js";
import { sampleNotification } from "../helpers/sample-notification.js";

function plan(): PolicyPlan {
  const { value } = validateConfig(
    {
      sinks: {
        banner: { type: "desktop" },
        chime: { type: "sound" },
        phone: { type: "webhook", url: "https://example.com/h", when: "away" },
        ops: { type: "webhook", url: "https://example.com/o" },
      },
    },
    {},
  );
  const notification = sampleNotification({ event: "Stop", failure: false, level: "done" });
  return { ...route(notification, value), suppressed: [], held: [] };
}

const ON: DndReading = { on: true, source: "gsettings", detail: "GNOME Do Not Disturb is on" };
const names = (p: PolicyPlan) => p.deliveries.map((d) => d.entry.name);

describe("applyDnd", () => {
  it('"respect": banners go, sounds are skipped with the reading as the reason', () => {
    const { plan: out, forceAway } = applyDnd(plan(), "respect", ON);
    expect(names(out)).toEqual(["banner", "phone", "ops"]);
    expect(out.skipped).toEqual([
      {
        sink: "chime",
        rule: "dnd",
        reason: expect.stringMatching(/^GNOME .*not played/) as unknown,
      },
    ]);
    expect(forceAway).toBe(false);
  });

  it('"remote": desktop and sound are skipped, and "when": "away" sinks go as if away', () => {
    const { plan: out, forceAway } = applyDnd(plan(), "remote", ON);
    expect(names(out)).toEqual(["phone", "ops"]);
    expect(out.suppressed.map((d) => d.entry.name)).toEqual(["banner", "chime"]);
    expect(forceAway).toBe(true);
  });

  it.each<[DndMode, DndReading]>([
    ["ignore", ON],
    ["respect", { on: false, source: "Inhibited", detail: "not inhibited" }],
    ["remote", { on: undefined, source: "Inhibited", detail: "no Inhibited property" }],
  ])('"%s" with %j changes nothing', (mode, reading) => {
    const before = plan();
    expect(applyDnd(before, mode, reading)).toEqual({ plan: before, forceAway: false });
  });

  it("a held SubagentStop is held back too", () => {
    const before = plan();
    const sound = before.deliveries.find((d) => d.entry.type === "sound");
    if (!sound) throw new Error("no sound delivery");
    before.held = [{ ...sound, holdMs: 3000, reason: "held" }];
    before.deliveries = before.deliveries.filter((d) => d !== sound);
    expect(dndMatters(before, "respect")).toBe(true);
    const { plan: out } = applyDnd(before, "respect", ON);
    expect(out.held).toEqual([]);
    expect(out.skipped).toMatchObject([{ sink: "chime", rule: "dnd" }]);
  });
});

describe("dndMatters", () => {
  it("reads only when a delivery would change", () => {
    expect(dndMatters(plan(), "ignore")).toBe(false);
    expect(dndMatters(plan(), "respect")).toBe(true);
    const noSound = plan();
    noSound.deliveries = noSound.deliveries.filter((d) => d.entry.type !== "sound");
    expect(dndMatters(noSound, "respect")).toBe(false);
    expect(dndMatters(noSound, "remote")).toBe(true);
  });
});
