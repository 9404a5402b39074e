import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { type Config } from "../../src/core/config.js";
import type { EventName, HookEvent } from "../../src/core/hook-event.js";
import {
  applyPolicy,
  headlessContainerOf,
  remoteSessionOf,
  type PolicyFacts,
  type PolicyPlan,
} from "../../src/pipeline/policy.js";
import { dedupeMarker, isIdlePrompt } from "../../src/pipeline/policy-repeats.js";
import { isWithin } from "../../src/pipeline/policy-rules.js";
import { route } from "../../src/pipeline/route.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const HOOK = "https://example.com/hook";

// desktop + sound (local) and a webhook (remote), plus whatever the case adds.
function config(top: Record<string, unknown> = {}, perSink: Record<string, unknown> = {}): Config {
  const checked = validateConfig(
    {
      sinks: {
        desktop: { type: "desktop", events: ["Notification", "Stop", "SessionEnd"], ...perSink },
        sound: { type: "sound", events: ["Notification", "Stop", "SessionEnd"] },
        hook: { type: "webhook", url: HOOK, events: ["Notification", "Stop", "SessionEnd"] },
      },
      ...top,
    },
    {},
  );
  expect(checked.issues).toEqual([]);
  return checked.value;
}

function event(name: EventName, fields: Partial<HookEvent> = {}): HookEvent {
  return { name, sessionId: "s-1", raw: {}, ...fields };
}

// An in-memory marker store with a clock: what claimMarker does, minus the files.
function markers(start = 1_000_000) {
  const seen = new Map<string, number>();
  const store = {
    now: start,
    claims: [] as string[],
    claim: (name: string, windowMs: number): boolean => {
      store.claims.push(name);
      const at = seen.get(name);
      if (at !== undefined && store.now - at < windowMs) return false;
      seen.set(name, store.now);
      return true;
    },
  };
  return store;
}

function decide(
  e: HookEvent,
  cfg: Config,
  facts: Partial<PolicyFacts> = {},
  failure = false,
): PolicyPlan {
  const notification = sampleNotification({ event: e.name, failure, sessionId: e.sessionId });
  const plan = route(notification, cfg);
  return applyPolicy(plan, e, cfg, {
    localMinutes: 12 * 60,
    claim: () => true,
    coalesce: true,
    ...facts,
  });
}

const sent = (plan: PolicyPlan): string[] => plan.deliveries.map((d) => d.entry.name);
const held = (plan: PolicyPlan): [string, string][] =>
  plan.suppressed.map((s) => [s.entry.name, s.rule]);

describe("quiet hours (isWithin)", () => {
  it.each<[string, string, number, boolean]>([
    ["before the start", "22:00-07:00", 21 * 60 + 59, false],
    ["at the start", "22:00-07:00", 22 * 60, true],
    ["just before midnight", "22:00-07:00", 23 * 60 + 59, true],
    ["at midnight (across it)", "22:00-07:00", 0, true],
    ["just before the end", "22:00-07:00", 6 * 60 + 59, true],
    ["at the end (exclusive)", "22:00-07:00", 7 * 60, false],
    ["a daytime window, inside", "12:30-13:30", 13 * 60, true],
    ["a daytime window, outside", "12:30-13:30", 14 * 60, false],
    ["an empty window (start = end)", "08:00-08:00", 8 * 60, false],
    ["not a window", "late", 23 * 60, false],
  ])("%s: %s at minute %i → %s", (_case, window, minutes, expected) => {
    expect(isWithin(window, minutes)).toBe(expected);
  });

  it("silences desktop and sound, not the remote sink", () => {
    const plan = decide(event("Stop"), config({ quietHours: "22:00-07:00" }), {
      localMinutes: 23 * 60,
    });
    expect(sent(plan)).toEqual(["hook"]);
    expect(held(plan)).toEqual([
      ["desktop", "quiet-hours"],
      ["sound", "quiet-hours"],
    ]);
    expect(plan.skipped).toContainEqual({
      sink: "desktop",
      rule: "quiet-hours",
      reason: "quiet hours 22:00-07:00 (local time)",
    });
  });

  it("is silent for failures too on local sinks (the remote ones still deliver them)", () => {
    const plan = decide(
      event("SessionEnd"),
      config({ quietHours: "22:00-07:00" }),
      {
        localMinutes: 3 * 60,
      },
      true,
    );
    expect(sent(plan)).toEqual(["hook"]);
  });

  it("outside the window nothing is held back", () => {
    const plan = decide(event("Stop"), config({ quietHours: "22:00-07:00" }), {
      localMinutes: 7 * 60,
    });
    expect(sent(plan)).toEqual(["desktop", "sound", "hook"]);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>, string[]]>([
    [
      "a sink's own window replaces the top-level one",
      { quietHours: "22:00-07:00" },
      { quietHours: "09:00-10:00" },
      ["desktop", "hook"],
    ],
    [
      '"" turns quiet hours off for one sink',
      { quietHours: "22:00-07:00" },
      { quietHours: "" },
      ["desktop", "hook"],
    ],
  ])("per sink: %s", (_case, top, perSink, expected) => {
    const plan = decide(event("Stop"), config(top, perSink), { localMinutes: 23 * 60 });
    expect(sent(plan)).toEqual(expected);
  });

  it("a remote sink with its own quietHours is silenced too", () => {
    const cfg = config();
    cfg.sinks.hook = { ...cfg.sinks.hook!, quietHours: "22:00-07:00" };
    expect(sent(decide(event("Stop"), cfg, { localMinutes: 23 * 60 }))).toEqual([
      "desktop",
      "sound",
    ]);
  });
});

describe("SSH-aware routing", () => {
  it.each<[Record<string, string>, string | undefined]>([
    [{ SSH_CONNECTION: "10.0.0.2 5122 10.0.0.1 22" }, "SSH session (SSH_CONNECTION is set)"],
    [{ SSH_TTY: "/dev/pts/3" }, "SSH session (SSH_TTY is set)"],
    [{ DISPLAY: ":0" }, undefined],
    [{}, undefined],
  ])("remoteSessionOf(%j) → %s", (env, expected) => {
    expect(remoteSessionOf(env)).toBe(expected);
  });

  const ssh = { remoteSession: "SSH session (SSH_CONNECTION is set)" };

  it("skips desktop and sound over SSH, failures included; remote sinks carry on", () => {
    for (const failure of [false, true]) {
      const plan = decide(event("SessionEnd"), config(), ssh, failure);
      expect(sent(plan)).toEqual(["hook"]);
      expect(held(plan)).toEqual([
        ["desktop", "ssh"],
        ["sound", "ssh"],
      ]);
    }
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>, string[]]>([
    [
      "localSinksOverSsh: true keeps them",
      { localSinksOverSsh: true },
      {},
      ["desktop", "sound", "hook"],
    ],
    ["per sink: true keeps that one", {}, { localSinksOverSsh: true }, ["desktop", "hook"]],
    [
      "per sink: false wins over the top level",
      { localSinksOverSsh: true },
      { localSinksOverSsh: false },
      ["sound", "hook"],
    ],
  ])("%s", (_case, top, perSink, expected) => {
    expect(sent(decide(event("Stop"), config(top, perSink), ssh))).toEqual(expected);
  });
});

describe("de-duplication", () => {
  it.each<[string, number, boolean]>([
    ["the same event 4.999 s later is held back", 4999, false],
    ["at exactly 5 s it notifies again", 5000, true],
    ["a minute later it notifies again", 60_000, true],
  ])("%s", (_case, laterMs, notifies) => {
    const store = markers();
    const cfg = config();
    expect(sent(decide(event("Stop"), cfg, { claim: store.claim }))).toHaveLength(3);
    store.now += laterMs;
    const again = decide(event("Stop"), cfg, { claim: store.claim });
    expect(sent(again)).toEqual(notifies ? ["desktop", "sound", "hook"] : []);
    if (!notifies)
      expect(new Set(held(again).map(([, rule]) => rule))).toEqual(new Set(["dedupe"]));
  });

  it("claims one marker per event, not one per sink", () => {
    const store = markers();
    decide(event("Stop"), config({ cooldown: { idle_prompt: 0 } }), { claim: store.claim });
    expect(store.claims).toEqual([expect.stringMatching(/^dd-[0-9a-f]{16}-5$/)]);
  });

  it("dedupeSeconds: 0 turns it off (no marker at all)", () => {
    const store = markers();
    const cfg = config({ dedupeSeconds: 0 });
    decide(event("Stop"), cfg, { claim: store.claim });
    expect(sent(decide(event("Stop"), cfg, { claim: store.claim }))).toHaveLength(3);
    expect(store.claims).toEqual([]);
  });

  it("asks for the marker only once a delivery has passed the other rules", () => {
    const store = markers();
    decide(event("Stop"), config({ quietHours: "00:00-23:59" }, {}), {
      claim: store.claim,
      remoteSession: "SSH",
      localMinutes: 60,
    });
    expect(store.claims).toHaveLength(1); // the webhook still went through
  });

  it.each<[string, Partial<HookEvent>, boolean]>([
    ["the same payload", {}, true],
    ["another session", { sessionId: "s-2" }, false],
    ["another message", { message: "Claude needs your permission" }, false],
    ["another reason", { reason: "logout" }, false],
    ["another agent type", { agentType: "Explore" }, false],
    [
      "a difference after 256 characters still counts (length)",
      { message: `${"x".repeat(300)}y` },
      false,
    ],
  ])("marker names: %s → same: %s", (_case, fields, same) => {
    const n = sampleNotification({ event: "Notification" });
    const a = dedupeMarker(event("Notification", { message: "x".repeat(300) }), n, 5);
    const b = dedupeMarker(event("Notification", { message: "x".repeat(300), ...fields }), n, 5);
    expect(a === b).toBe(same);
  });

  it("the last assistant message tells two Stops apart", () => {
    const e = event("Stop");
    const one = sampleNotification({ event: "Stop", lastMessage: "Fixed the bug." });
    const two = sampleNotification({ event: "Stop", lastMessage: "Added the tests." });
    expect(dedupeMarker(e, one, 5)).not.toBe(dedupeMarker(e, two, 5));
  });
});

describe("cool-down", () => {
  const idle = event("Notification", { message: "Claude is waiting for your input" });

  it.each<[string, Partial<HookEvent>, boolean]>([
    ["notification_type idle_prompt", { notificationType: "idle_prompt" }, true],
    ["Droid's waiting-for-input text", { message: "Droid is waiting for your input" }, true],
    [
      "a permission prompt",
      { notificationType: "permission_prompt", message: "Claude needs your permission" },
      false,
    ],
  ])("isIdlePrompt: %s → %s", (_case, fields, expected) => {
    expect(isIdlePrompt(event("Notification", fields))).toBe(expected);
  });

  it.each<[string, number, boolean]>([
    ["idle prompts: the second within 60 s is held back (default)", 59_000, false],
    ["idle prompts: after 60 s it notifies again", 60_000, true],
  ])("%s", (_case, laterMs, notifies) => {
    const store = markers();
    const cfg = config({ dedupeSeconds: 0 });
    expect(sent(decide(idle, cfg, { claim: store.claim }))).toHaveLength(3);
    store.now += laterMs;
    const again = decide(idle, cfg, { claim: store.claim });
    expect(sent(again)).toEqual(notifies ? ["desktop", "sound", "hook"] : []);
    if (!notifies) expect(again.suppressed[0]?.reason).toMatch(/idle prompt .* 60 s/);
  });

  it("is per session", () => {
    const store = markers();
    const cfg = config({ dedupeSeconds: 0 });
    decide(idle, cfg, { claim: store.claim });
    expect(sent(decide({ ...idle, sessionId: "other" }, cfg, { claim: store.claim }))).toHaveLength(
      3,
    );
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>, number, string[]]>([
    ["a top-level Stop cool-down", { cooldown: { Stop: 120 } }, {}, 119_000, []],
    [
      "…over after its seconds",
      { cooldown: { Stop: 120 } },
      {},
      120_000,
      ["desktop", "sound", "hook"],
    ],
    [
      "per sink: only that sink cools down",
      {},
      { cooldown: { Stop: 120 } },
      10_000,
      ["sound", "hook"],
    ],
    [
      "per sink: 0 lifts the top-level one for that sink",
      { cooldown: { Stop: 120 } },
      { cooldown: { Stop: 0 } },
      10_000,
      ["desktop"],
    ],
    [
      "idle_prompt: 0 turns the default off",
      { cooldown: { idle_prompt: 0 } },
      {},
      1000,
      ["desktop", "sound", "hook"],
    ],
  ])("%s", (_case, top, perSink, laterMs, expected) => {
    const store = markers();
    const cfg = config({ dedupeSeconds: 0, ...top }, perSink);
    const e = "cooldown" in top && "idle_prompt" in (top.cooldown as object) ? idle : event("Stop");
    decide(e, cfg, { claim: store.claim });
    store.now += laterMs;
    expect(sent(decide(e, cfg, { claim: store.claim }))).toEqual(expected);
  });

  it("a Notification cool-down longer than 60 s applies to idle prompts too", () => {
    const store = markers();
    const cfg = config({ dedupeSeconds: 0, cooldown: { Notification: 300 } });
    decide(idle, cfg, { claim: store.claim });
    store.now += 200_000;
    expect(sent(decide(idle, cfg, { claim: store.claim }))).toEqual([]);
  });

  it("failures are never cooled down", () => {
    const store = markers();
    const cfg = config({ dedupeSeconds: 0, cooldown: { SessionEnd: 600 } });
    for (let i = 0; i < 3; i += 1) {
      store.now += 1000;
      expect(sent(decide(event("SessionEnd"), cfg, { claim: store.claim }, true))).toHaveLength(3);
    }
  });
});

describe("minimum turn length", () => {
  it.each<[string, EventName, number | undefined, number, boolean]>([
    ["a 29 s turn under minTurnSeconds 30", "Stop", 29_000, 30, false],
    ["a 30 s turn", "Stop", 30_000, 30, true],
    ["an unknown turn length notifies", "Stop", undefined, 30, true],
    ["off by default (0)", "Stop", 1000, 0, true],
    ["only Stop: a SessionEnd is not held back", "SessionEnd", 1000, 30, true],
  ])("%s", (_case, name, turnMs, min, notifies) => {
    const plan = decide(event(name), config({ minTurnSeconds: min }), { turnMs });
    expect(sent(plan)).toEqual(notifies ? ["desktop", "sound", "hook"] : []);
    if (!notifies)
      expect(plan.suppressed[0]?.reason).toBe("the turn took 29 s, under minTurnSeconds 30");
  });

  it("per sink: a sink's own minimum wins", () => {
    const plan = decide(event("Stop"), config({}, { minTurnSeconds: 60 }), { turnMs: 20_000 });
    expect(sent(plan)).toEqual(["sound", "hook"]);
    expect(held(plan)).toEqual([["desktop", "min-turn"]]);
  });
});

// Claude Code 2.1.332's Stop while a background subagent runs (a second turn and Stop follow).
describe("background tasks still running", () => {
  const task = (status: string) => ({ id: "a1", type: "subagent", status, description: "probe" });
  it.each<[string, unknown, boolean]>([
    ["a running subagent holds the Stop back", [task("running")], false],
    ["tasks that ended do not", [task("completed")], true],
    ["an empty list does not", [], true],
    ["a list of the wrong shape does not", "running", true],
  ])("%s", (_case, tasks, notifies) => {
    const plan = decide(event("Stop", { raw: { background_tasks: tasks } }), config());
    expect(sent(plan)).toEqual(notifies ? ["desktop", "sound", "hook"] : []);
    if (!notifies) {
      expect(held(plan)).toEqual([
        ["desktop", "background"],
        ["sound", "background"],
        ["hook", "background"],
      ]);
      expect(plan.suppressed[0]?.reason).toBe(
        "1 background task is still running: the Stop of the turn that ends them says done",
      );
    }
  });

  it("only Stop: a SubagentStop that lists itself as running still notifies", () => {
    const raw = { background_tasks: [task("running"), task("running")] };
    const cfg = config({}, { events: ["SubagentStop"] });
    const plan = decide(event("SubagentStop", { raw }), { ...cfg, coalesceSeconds: 0 });
    expect(plan.suppressed).toEqual([]);
  });
});

describe("a container without a display", () => {
  const docker = (path: string) => path === "/.dockerenv";
  const none = () => false;
  it.each<[string, Record<string, string>, NodeJS.Platform, (p: string) => boolean, boolean]>([
    ["/.dockerenv, nothing passed in", {}, "linux", docker, true],
    ["podman's /run/.containerenv", {}, "linux", (p) => p === "/run/.containerenv", true],
    ["container=systemd-nspawn", { container: "systemd-nspawn" }, "linux", none, true],
    ["not a container", {}, "linux", none, false],
    ["a forwarded X display", { DISPLAY: ":0" }, "linux", docker, false],
    ["Wayland", { WAYLAND_DISPLAY: "wayland-0" }, "linux", docker, false],
    ["a session bus", { DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/bus" }, "linux", docker, false],
    ["a sound server", { PULSE_SERVER: "unix:/run/pulse" }, "linux", docker, false],
    ["HOOK_NOTIFY_LOCAL_SINKS=1", { HOOK_NOTIFY_LOCAL_SINKS: "1" }, "linux", docker, false],
    ["macOS", {}, "darwin", docker, false],
  ])("%s", (_case, env, platform, exists, headless) => {
    const why = headlessContainerOf(env, platform, exists);
    expect(why !== undefined).toBe(headless);
    if (why) expect(why).toMatch(/^a container without a display \(/);
  });

  it("skips desktop and sound like SSH does, with its own rule; localSinksOverSsh keeps them", () => {
    const facts = { headlessContainer: "a container without a display (/.dockerenv; …)" };
    const plan = decide(event("Stop"), config(), facts);
    expect(sent(plan)).toEqual(["hook"]);
    expect(held(plan)).toEqual([
      ["desktop", "container"],
      ["sound", "container"],
    ]);
    expect(sent(decide(event("Stop"), config({ localSinksOverSsh: true }), facts))).toEqual([
      "desktop",
      "sound",
      "hook",
    ]);
  });

  it("HOOK_NOTIFY_LOCAL_SINKS=1 also overrides the SSH rule", () => {
    expect(
      remoteSessionOf({ SSH_TTY: "/dev/pts/1", HOOK_NOTIFY_LOCAL_SINKS: "1" }),
    ).toBeUndefined();
  });
});

describe("subagent coalescing", () => {
  const ALL = ["Notification", "Stop", "SubagentStop", "SessionEnd"];
  function subagentConfig(top: Record<string, unknown> = {}, hook: Record<string, unknown> = {}) {
    const checked = validateConfig(
      {
        sinks: {
          desktop: { type: "desktop", events: ALL },
          hook: { type: "webhook", url: HOOK, events: ALL, ...hook },
        },
        ...top,
      },
      {},
    );
    expect(checked.issues).toEqual([]);
    return checked.value;
  }
  const holding = (plan: PolicyPlan) => plan.held.map((h) => [h.entry.name, h.holdMs]);
  const sub = event("SubagentStop", { agentId: "a1", agentType: "Explore" });

  it("holds every sink's SubagentStop for 3 s by default, and says why", () => {
    const plan = decide(sub, subagentConfig());
    expect(sent(plan)).toEqual([]);
    expect(holding(plan)).toEqual([
      ["desktop", 3000],
      ["hook", 3000],
    ]);
    expect(plan.held[0]?.reason).toMatch(/^held 3 s for the session's next SubagentStop events/);
    expect(plan.skipped).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>, (string | number)[][]]>([
    ["coalesceSeconds: 0 turns it off", { coalesceSeconds: 0 }, {}, []],
    [
      "a longer window",
      { coalesceSeconds: 10 },
      {},
      [
        ["desktop", 10_000],
        ["hook", 10_000],
      ],
    ],
    ["per sink: 0 sends that sink each one", {}, { coalesceSeconds: 0 }, [["desktop", 3000]]],
    [
      "per sink wins over the top level",
      { coalesceSeconds: 0 },
      { coalesceSeconds: 5 },
      [["hook", 5000]],
    ],
  ])("%s", (_case, top, hook, expected) => {
    expect(holding(decide(sub, subagentConfig(top, hook)))).toEqual(expected);
  });

  it("holds nothing but SubagentStop, never a failure, and nothing for --wait", () => {
    expect(decide(event("Stop"), subagentConfig()).held).toEqual([]);
    expect(decide(sub, subagentConfig(), {}, true).held).toEqual([]);
    const now = decide(sub, subagentConfig(), { coalesce: false });
    expect(now.held).toEqual([]);
    expect(sent(now)).toEqual(["desktop", "hook"]);
  });

  it("applies the other rules first: a duplicate is suppressed, not held", () => {
    const store = markers();
    const cfg = subagentConfig();
    expect(decide(sub, cfg, { claim: store.claim }).held).toHaveLength(2);
    const again = decide(sub, cfg, { claim: store.claim });
    expect(again.held).toEqual([]);
    expect(held(again)).toEqual([
      ["desktop", "dedupe"],
      ["hook", "dedupe"],
    ]);
  });

  it("tells two subagents of one session apart by agent_id, even with the same words", () => {
    const n = sampleNotification({ event: "SubagentStop", failure: false });
    const a = event("SubagentStop", { agentId: "a1", agentType: "Explore" });
    const b = event("SubagentStop", { agentId: "a2", agentType: "Explore" });
    expect(dedupeMarker(a, n, 5)).not.toBe(dedupeMarker(b, n, 5));
  });
});
