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
  // The level comes from the notification_type (message/notification-types.ts, format.ts).
  it.each([
    [{ event: "Notification", level: "attention" }, undefined, true],
    [{ event: "Notification", level: "info" }, undefined, false],
    [{ event: "Notification", level: "limit" }, undefined, false],
    [{ event: "Notification", level: "failure", failure: true }, undefined, true],
    // A notice and a usage limit never escalate, even when `events` names their event.
    [{ event: "Notification", level: "info" }, ["Notification"], false],
    [{ event: "StopFailure", level: "limit" }, ["StopFailure"], false],
    [{ event: "StopFailure", level: "failure", failure: true }, undefined, true],
    [{ event: "Stop", level: "done" }, undefined, false],
    [{ event: "Stop", level: "done" }, ["Stop"], true],
    [{ event: "SubagentStop", level: "done" }, undefined, false],
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
    level: "attention" as const,
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
    expect(broken.issues[0]).toMatch(
      /^escalate\.to: no valid sink named "pager"\. .*Valid sinks: /,
    );
    expect(planEscalations(permission, broken.value, ["chat"])).toEqual([]);
  });

  it("a chain: one follow-up per step, each with its own stable id, due counted from the notification", () => {
    const value = config({
      escalate: [
        { afterSeconds: 300, to: ["phone"] },
        { afterSeconds: 900, to: ["mail", "phone"] },
        { afterSeconds: 1800, to: ["mail"], events: ["StopFailure"] },
      ],
      sinks: { ...sinks, mail: { type: "webhook", url: "https://example.test/mail", events: [] } },
    });
    const planned = planEscalations(permission, value, ["chat"]);
    expect(planned.map((p) => [p.sinkName, p.afterSeconds, p.notification.id, p.cancelOn])).toEqual(
      [
        ["phone", 300, `${permission.id}.followup`, "prompt-or-moved"],
        ["mail", 900, `${permission.id}.followup2`, "prompt-or-moved"],
        ["phone", 900, `${permission.id}.followup2`, "prompt-or-moved"],
      ],
    );
    expect(planned.map((p) => p.notification.followUp?.of)).toEqual(Array(3).fill(permission.id));
    expect(planned[1]?.notification.title).toMatch(/^Still waiting after 15 min: /);
    // The third step only for a failure: its id is the third's, whatever the second did.
    const failed = { ...permission, event: "StopFailure" as const, failure: true };
    expect(planEscalations(failed, value, ["chat"]).map((p) => p.notification.id)).toEqual([
      `${permission.id}.followup`,
      `${permission.id}.followup2`,
      `${permission.id}.followup2`,
      `${permission.id}.followup3`,
    ]);
  });

  it("a chain beside a single step: step n of each is stage n, the earliest per sink winning", () => {
    const value = config({
      escalate: [
        { afterSeconds: 300, to: ["phone"] },
        { afterSeconds: 1200, to: ["phone"] },
      ],
      sinks: { ...sinks, chat: { ...sinks.chat, escalate: { afterSeconds: 120, to: ["phone"] } } },
    });
    expect(
      planEscalations(permission, value, ["chat"]).map((p) => [p.afterSeconds, p.notification.id]),
    ).toEqual([
      [120, `${permission.id}.followup`],
      [1200, `${permission.id}.followup2`],
    ]);
  });

  it("refuses steps that do not increase and unknown sinks, in one line naming the place", () => {
    const steps = [
      { afterSeconds: 300, to: ["phone"] },
      { afterSeconds: 300, to: ["pager"] },
    ];
    const notIncreasing = validateConfig({ escalate: steps, sinks }, {});
    expect(notIncreasing.issues).toEqual([
      "escalate[1].afterSeconds: each step comes after the one before it: expected more than 300 (seconds after the notification)",
    ]);
    expect(notIncreasing.value.escalate).toBeUndefined();
    const unknown = validateConfig(
      {
        sinks: {
          ...sinks,
          chat: { ...sinks.chat, escalate: [steps[0], { ...steps[1], afterSeconds: 600 }] },
        },
      },
      {},
    );
    expect(unknown.issues).toEqual([
      'sinks.chat.escalate[1].to: no valid sink named "pager". Valid sinks: chat, phone',
    ]);
    expect(validateConfig({ escalate: [], sinks }, {}).issues).toEqual([
      "escalate: must have at least 1 entry",
    ]);
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
