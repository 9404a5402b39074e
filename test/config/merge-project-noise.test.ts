import { describe, expect, it } from "vitest";
import { mergeProjectConfig } from "../../src/config/merge-project.js";
import { validateConfig } from "../../src/config/validate-config.js";
import { type Config } from "../../src/core/config.js";

function user(extra: Record<string, unknown> = {}): Config {
  const checked = validateConfig({ sinks: { desk: { type: "desktop" } }, ...extra }, {});
  expect(checked.issues).toEqual([]);
  return checked.value;
}

// The noise rules in a project's .hook-notify.json: only ever stricter than the user's own file.
describe("mergeProjectConfig: noise rules", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, Partial<Config>, boolean]>([
    ["a longer dedupe window applies", {}, { dedupeSeconds: 30 }, { dedupeSeconds: 30 }, false],
    ["dedupe cannot be turned off", {}, { dedupeSeconds: 0 }, { dedupeSeconds: 5 }, true],
    ["a minimum turn applies", {}, { minTurnSeconds: 60 }, { minTurnSeconds: 60 }, false],
    [
      "a longer coalescing window applies",
      {},
      { coalesceSeconds: 10 },
      { coalesceSeconds: 10 },
      false,
    ],
    ["coalescing cannot be turned off", {}, { coalesceSeconds: 0 }, { coalesceSeconds: 3 }, true],
    [
      "a lower minimum turn does not",
      { minTurnSeconds: 30 },
      { minTurnSeconds: 10 },
      { minTurnSeconds: 30 },
      true,
    ],
    [
      "quiet hours where the user has none",
      {},
      { quietHours: "22:00-07:00" },
      { quietHours: "22:00-07:00" },
      false,
    ],
    [
      "not over the user's own quiet hours",
      { quietHours: "23:00-06:00" },
      { quietHours: "12:00-13:00" },
      { quietHours: "23:00-06:00" },
      true,
    ],
    [
      '"" cannot lift the user\'s quiet hours',
      { quietHours: "23:00-06:00" },
      { quietHours: "" },
      { quietHours: "23:00-06:00" },
      true,
    ],
    [
      "local sinks off over SSH",
      { localSinksOverSsh: true },
      { localSinksOverSsh: false },
      { localSinksOverSsh: false },
      false,
    ],
    ["but not back on", {}, { localSinksOverSsh: true }, { localSinksOverSsh: false }, true],
    [
      "a longer cool-down applies, next to the default",
      {},
      { cooldown: { Stop: 120 } },
      { cooldown: { idle_prompt: 60, Stop: 120 } },
      false,
    ],
    [
      "a shorter one does not (the idle-prompt default counts)",
      {},
      { cooldown: { idle_prompt: 10 } },
      { cooldown: { idle_prompt: 60 } },
      true,
    ],
  ])("%s", (_case, own, project, expected, refused) => {
    const merged = mergeProjectConfig(user(own), project, {});
    expect(merged.value).toMatchObject(expected);
    const key = Object.keys(project)[0]!;
    expect(merged.issues).toEqual(
      refused
        ? [
            expect.stringMatching(
              new RegExp(`^${key}: a project file can only make the noise rules stricter`),
            ),
          ]
        : [],
    );
  });

  it("per sink, the noise keys are not narrowing keys: refused like a new target", () => {
    const merged = mergeProjectConfig(user(), { sinks: { desk: { quietHours: "" } } }, {});
    expect(merged.issues).toEqual([
      expect.stringContaining("sinks.desk: a project file can only turn off or narrow"),
    ]);
    expect(merged.value.sinks.desk?.quietHours).toBeUndefined();
  });

  it("a trusted project file (allowProjectSinks) sets them as the user's own file would", () => {
    const merged = mergeProjectConfig(
      user({ allowProjectSinks: true, quietHours: "23:00-06:00", minTurnSeconds: 30 }),
      { dedupeSeconds: 0, quietHours: "", localSinksOverSsh: true, cooldown: { Stop: 5 } },
      {},
    );
    expect(merged.issues).toEqual([]);
    expect(merged.value).toMatchObject({
      dedupeSeconds: 0,
      quietHours: undefined,
      minTurnSeconds: 30,
      localSinksOverSsh: true,
      cooldown: { Stop: 5 },
    });
  });
});
