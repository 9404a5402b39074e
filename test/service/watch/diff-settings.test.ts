import { describe, expect, it } from "vitest";
import { diffSettings } from "../../../src/service/watch/diff-settings.js";
import { makeCanary } from "../../helpers/canary.js";

describe("diffSettings", () => {
  it.each([
    [{ a: true }, { a: false }, ["a: true → false"]],
    [{}, { sessionRetentionDays: 30 }, ["sessionRetentionDays: added 30"]],
    [{ serviceRouterGuidance: "x" }, {}, ["serviceRouterGuidance: removed"]],
    [
      { commandDenylist: ["rm"] },
      { commandDenylist: ["rm", "curl | sh"] },
      ["commandDenylist: + curl | sh"],
    ],
    [{ commandAllowlist: ["ls", "cat"] }, { commandAllowlist: ["cat", "ls"] }, []],
    [
      { modelPolicy: { allowCustomModels: false, allowedModelIds: ["a"] } },
      { modelPolicy: { allowCustomModels: true, allowedModelIds: [] } },
      ["modelPolicy.allowCustomModels: false → true", "modelPolicy.allowedModelIds: − a"],
    ],
  ])("%j → %j", (before, after, lines) => {
    expect(diffSettings(before, after).map((c) => c.line)).toEqual(lines);
  });

  it("masks credential-bearing values: customModels[].apiKey, extraHeaders, cloud credentials", () => {
    const oldKey = makeCanary("OldModelKey");
    const newKey = makeCanary("NewModelKey");
    const bearer = makeCanary("Header");
    const model = (apiKey: string) => ({
      model: "m",
      displayName: "Mine",
      apiKey,
      extraHeaders: { Authorization: `Bearer ${bearer}` },
      cloudHosted: { cloudCredentialExport: bearer, cloudRegion: "eu" },
    });
    const changed = diffSettings(
      { customModels: [model(oldKey)] },
      { customModels: [model(newKey)] },
    );
    expect(changed.map((c) => c.line)).toEqual(["customModels[0].apiKey: changed (***)"]);
    const added = diffSettings({}, { customModels: [model(newKey)] });
    const text = added.map((c) => c.line).join("\n");
    expect(text).toContain('customModels[0].displayName: added "Mine"');
    expect(text).toContain("customModels[0].apiKey: added ***");
    expect(text).toContain("customModels[0].extraHeaders.Authorization: added ***");
    expect(text).toContain('customModels[0].cloudHosted.cloudRegion: added "eu"');
    for (const secret of [newKey, bearer]) expect(text).not.toContain(secret);
  });
});
