import { describe, expect, it } from "vitest";
import { coalesceNotifications, countedNames } from "../../src/message/coalesce.js";
import type { Notification } from "../../src/core/notification.js";
import { sampleNotification } from "../helpers/sample-notification.js";

// A SubagentStop notification as formatNotification renders it.
function subagent(i: number, agentType: string | undefined, lastMessage?: string): Notification {
  return sampleNotification({
    id: `id-${String(i)}`,
    event: "SubagentStop",
    failure: false,
    level: "done",
    title: `shop-api · Subagent finished (${agentType ?? "?"})`,
    body: lastMessage ?? "",
    reason: undefined,
    agentType,
    lastMessage,
    timestamp: `2026-11-23T10:00:0${String(i)}.000Z`,
    raw: { hook_event_name: "SubagentStop", agent_id: `a${String(i)}` },
  });
}

describe("coalesceNotifications", () => {
  it("gives a lone SubagentStop back unchanged (same id, same words)", () => {
    const one = subagent(1, "Explore", "Found 3 call sites.");
    expect(coalesceNotifications([one], 300)).toBe(one);
  });

  it("names every subagent in arrival order and says how many finished", () => {
    const merged = coalesceNotifications(
      [
        subagent(1, "Explore", "Found 3 call sites."),
        subagent(2, "Plan", "Plan ready."),
        subagent(3, "general-purpose", undefined),
      ],
      300,
    );
    expect(merged.title).toBe("shop-api · 3 subagents finished");
    expect(merged.body.split("\n")).toEqual([
      "Explore, Plan, general-purpose",
      "• Explore: Found 3 call sites.",
      "• Plan: Plan ready.",
      "• general-purpose",
      "Session: Fix checkout",
    ]);
    expect(merged).toMatchObject({
      event: "SubagentStop",
      failure: false,
      level: "done",
      agentType: "Explore, Plan, general-purpose",
      lastMessage: "Explore: Found 3 call sites.\n\nPlan: Plan ready.",
      timestamp: "2026-11-23T10:00:03.000Z",
      raw: { hook_event_name: "SubagentStop", agent_id: "a3" },
    });
    expect(merged.coalesced).toEqual([
      {
        id: "id-1",
        timestamp: "2026-11-23T10:00:01.000Z",
        agentType: "Explore",
        lastMessage: "Found 3 call sites.",
      },
      {
        id: "id-2",
        timestamp: "2026-11-23T10:00:02.000Z",
        agentType: "Plan",
        lastMessage: "Plan ready.",
      },
      { id: "id-3", timestamp: "2026-11-23T10:00:03.000Z", agentType: "general-purpose" },
    ]);
  });

  it("has an id fixed by its parts: a re-merge after a crash sends the same notification", () => {
    const parts = [subagent(1, "Explore"), subagent(2, "Plan")];
    const a = coalesceNotifications(parts, 300);
    const b = coalesceNotifications(
      parts.map((p) => ({ ...p })),
      300,
    );
    expect(a.id).toBe(b.id);
    expect(a.id).toMatch(/^id-1\+2-[0-9a-f]{12}$/);
    expect(coalesceNotifications([parts[0] as Notification, subagent(3, "Plan")], 300).id).not.toBe(
      a.id,
    );
  });

  it("counts repeated kinds, lists 8 subagents and counts the rest", () => {
    const parts = Array.from({ length: 12 }, (_, i) =>
      subagent(i, i % 3 === 0 ? "Explore" : "general-purpose", `done ${String(i)}`),
    );
    const merged = coalesceNotifications(parts, 4000);
    const lines = merged.body.split("\n");
    expect(lines[0]).toBe("Explore ×4, general-purpose ×8");
    expect(lines.filter((l) => l.startsWith("• "))).toHaveLength(8);
    expect(lines).toContain("… and 4 more");
    expect(merged.title).toBe("shop-api · 12 subagents finished");
  });

  it("keeps the body within maxBodyLength and each line short, whatever the subagents said", () => {
    const long = "x".repeat(5000);
    const parts = Array.from({ length: 5 }, (_, i) => subagent(i, "Explore", long));
    const merged = coalesceNotifications(parts, 300);
    expect(Array.from(merged.body).length).toBeLessThanOrEqual(300);
    expect(merged.body.split("\n").every((l) => Array.from(l).length <= 120)).toBe(true);
    expect(Array.from(merged.lastMessage ?? "").length).toBeLessThanOrEqual(2000);
  });

  it("calls a subagent without a type 'subagent' and keeps hostile text as text", () => {
    const merged = coalesceNotifications(
      [subagent(1, undefined, "<!channel> $(rm -rf ~)"), subagent(2, "`whoami`", "ok")],
      300,
    );
    expect(merged.body).toContain("• subagent: <!channel> $(rm -rf ~)");
    expect(merged.body.split("\n")[0]).toBe("subagent, `whoami`");
  });
});

describe("countedNames", () => {
  it.each<[string[], string]>([
    [["A"], "A"],
    [["A", "B", "A"], "A ×2, B"],
    [["B", "A", "A", "A"], "B, A ×3"],
  ])("%j → %s", (names, text) => {
    expect(countedNames(names)).toBe(text);
  });
});
