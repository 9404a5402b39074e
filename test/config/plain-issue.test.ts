import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";

const issuesOf = (json: unknown) => validateConfig(json, {}).issues;

describe("config problems in plain words, each naming its place and what is valid", () => {
  it("a misspelt key: the likely one; the sink beside it still loads", () => {
    const result = validateConfig(
      {
        quietHour: "22:00-07:00",
        sinks: {
          desk: { type: "desktop", backnd: "low" },
          hook: { type: "webhook", url: "https://example.com/h" },
        },
      },
      {},
    );
    expect(result.issues).toContain('quietHour: unknown setting. Did you mean "quietHours"?');
    expect(result.issues).toContain('sinks.desk.backnd: unknown setting. Did you mean "backend"?');
    expect(Object.keys(result.value.sinks)).toEqual(["hook"]);
  });

  it("wrong types, choices, sink types and targets: no zod wording", () => {
    const issues = issuesOf({
      maxBodyLength: "300",
      escalate: { afterSeconds: 60, to: ["phnoe"] },
      sinks: {
        phone: { type: "webhook", url: "https://example.com/h" },
        chat: { type: "webhok", url: "https://example.com" },
        desk: { type: "desktop", backend: "notfy-send" },
      },
    });
    expect(issues).toContain("maxBodyLength: must be a number (it is a string)");
    expect(issues.find((i) => i.startsWith("sinks.chat.type"))).toContain(
      `Did you mean "webhook"?`,
    );
    expect(issues.find((i) => i.startsWith("sinks.desk.backend"))).toMatch(
      /must be one of .*"notify-send".*Did you mean "notify-send"\?/,
    );
    expect(issues.find((i) => i.startsWith("escalate.to"))).toContain('Did you mean "phone"?');
    expect(issues.join("\n")).not.toMatch(/Invalid input|Unrecognized key|expected \w+, received/);
  });
});
