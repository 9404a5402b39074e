import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG_JSON, defaultConfig } from "../../src/config/default-config.js";
import { validateConfig } from "../../src/config/validate-config.js";

// The built-in default is written out by hand so that a run without a config file loads no zod;
// the schema stays its one source of truth.
describe("defaultConfig", () => {
  it("is what the schema makes of DEFAULT_CONFIG_JSON, every default applied", () => {
    expect(defaultConfig()).toStrictEqual(validateConfig(DEFAULT_CONFIG_JSON, {}));
  });

  it("does not depend on the environment (the default names no ${VAR})", () => {
    const env = { HOOK_NOTIFY_LOCAL_SINKS: "1", HOME: "/home/someone" };
    expect(validateConfig(DEFAULT_CONFIG_JSON, env)).toStrictEqual(defaultConfig());
  });

  it("is a new object each call: a caller adding to its arrays changes no later run", () => {
    const first = defaultConfig();
    first.secrets.push("s3cret");
    first.value.sinks["desktop"]?.events.pop();
    expect(defaultConfig()).toStrictEqual(validateConfig(DEFAULT_CONFIG_JSON, {}));
  });
});
