import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { followUp, needsPerson, planEscalations, waitLabel } from "../../src/escalation/plan.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const config = (json: unknown) => validateConfig(json, {}).value;
const sinks = {
  chat: { type: "webhook", url: "https://example.test/chat" },
  phone: { type: "webhook", url: "https://example.test/phone", events: ["StopFailure"] },
};

describe("needsPerson", () => {
  it.each([
    [{ event: "Notification", raw: { notification_type: "permission_prompt" } }, undefined, true],
    [{ event: "Notification", raw: { notification_type: "idle_prompt" } }, undefined, true],
    [{ event: "Notification", raw: { notification_type: "auth_success" } }, undefined, false],
    // Claude Code 2.1.3xx: a subagent's prompt, a URL to open, auto mode asking for a choice.
    [
      { event: "Notification", raw: { notification_type: "worker_permission_prompt" } },
      undefined,
      true,
    ],
    [
      { event: "Notification", raw: { notification_type: "elicitation_url_dialog" } },
      undefined,
      true,
    ],
    [{ event: "Notification", raw: { notification_type: "agent_needs_input" } }, undefined, true],
    [{ event: "Notification", raw: {} }, undefined, true],
    [{ event: "StopFailure", failure: true, raw: {} }, undefined, true],
    [{ event: "Stop", raw: {} }, undefined, false],
    [{ event: "Stop", raw: {} }, ["Stop"], true],
    [{ event: "SubagentStop", raw: {} }, undefined, false],
  ] as const)("%j with events %j → %s", (patch, events, expected) => {
    const notification = { ...sampleNotification(), failure: false, ...patch };
    expect(needsPerson(notification as never, events as never)).toBe(expected);
  });
});

describe("planEscalations", () => {
  const permission = {
    ...sampleNotification(),
    event: "Notification" as const,
    failure: false,
    sessionId: "s1",
    raw: { notification_type: "permission_prompt" },
  };

  it("one follow-up per target, the earliest window winning, with a derived stable id", () => {
    const value = config({
      escalate: { afterSeconds: 300, to: ["phone"] },
      sinks: { ...sinks, chat: { ...sinks.chat, escalate: { afterSeconds: 60, to: ["phone"] } } },
    });
    const [only, ...rest] = planEscalations(permission, value, ["chat"]);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({
      sinkName: "phone",
      afterSeconds: 60,
      cancelOn: "prompt-or-moved",
    });
    expect(only?.notification.id).toBe(`${permission.id}.followup`);
    expect(only?.notification.title).toMatch(/^Still waiting after 1 min: /);
    expect(planEscalations(permission, value, ["chat"])[0]?.notification.id).toBe(
      only?.notification.id,
    );
  });

  it("nothing without a session, when nothing was delivered, or for an unknown target", () => {
    const value = config({ escalate: { afterSeconds: 300, to: ["phone"] }, sinks });
    expect(planEscalations({ ...permission, sessionId: undefined }, value, ["chat"])).toEqual([]);
    expect(planEscalations(permission, value, [])).toEqual([]);
    const broken = validateConfig({ escalate: { afterSeconds: 300, to: ["pager"] }, sinks }, {});
    expect(broken.issues).toContain('escalate.to: no valid sink named "pager"');
    expect(planEscalations(permission, broken.value, ["chat"])).toEqual([]);
  });

  it("labels the wait the way a person says it", () => {
    expect([3, 90, 300, 3600, 7200].map(waitLabel)).toEqual([
      "3 s",
      "90 s",
      "5 min",
      "60 min",
      "2 h",
    ]);
    expect(followUp(permission, 300).followUp).toEqual({
      of: permission.id,
      afterSeconds: 300,
      label: "still waiting after 5 min",
    });
  });
});
