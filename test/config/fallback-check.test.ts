import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { route } from "../../src/pipeline/route.js";
import { sampleNotification } from "../helpers/sample-notification.js";

const hook = (extra: Record<string, unknown> = {}) => ({
  type: "webhook",
  url: "https://example.test/in",
  ...extra,
});

describe("fallback in the config", () => {
  it("keeps a valid fallback; a sink with events [] is routed nothing of its own", () => {
    const { value, issues } = validateConfig(
      { sinks: { team: hook({ fallback: ["mail", "mail"] }), mail: hook({ events: [] }) } },
      {},
    );
    expect(issues).toEqual([]);
    expect(value.sinks.team?.fallback).toEqual(["mail"]);
    const plan = route(sampleNotification(), value);
    expect(plan.deliveries.map((d) => d.entry.name)).toEqual(["team"]);
    expect(plan.skipped).toEqual([{ sink: "mail", reason: "a fallback only (events: [])" }]);
  });

  it.each([
    [
      { a: hook({ fallback: ["b"] }), b: hook({ fallback: ["a"] }) },
      "sinks.a.fallback: the fallbacks go round in a cycle (a → b → a); remove one of them",
    ],
    [
      { a: hook({ fallback: ["b"] }), b: hook({ fallback: ["c"] }), c: hook({ fallback: ["a"] }) },
      "sinks.a.fallback: the fallbacks go round in a cycle (a → b → c → a); remove one of them",
    ],
    [
      { a: hook({ fallback: ["a"] }) },
      'sinks.a.fallback: a sink cannot be its own fallback; remove "a"',
    ],
    [{ a: hook({ fallback: ["pager"] }) }, 'sinks.a.fallback: no valid sink named "pager"'],
  ])("refuses %j with one line", (sinks, issue) => {
    const { value, issues } = validateConfig({ sinks }, {});
    expect(issues).toEqual([issue]);
    for (const entry of Object.values(value.sinks)) expect(entry.fallback).toBeUndefined();
  });
});
