// Who answers a session: only the person. Claude Code 2.1.332's UserPromptSubmit says who wrote the
// prompt in `source`; a machine's prompt (a /loop wakeup, a scheduled task) answers nothing.
import { describe, expect, it } from "vitest";
import { answeredAt, promptIsPerson, sessionKey } from "../../src/escalation/answers.js";
import { noteAnswer } from "../../src/pipeline/escalation-steps.js";
import { fixtureJson } from "../pipeline/event-fixtures.js";
import { testDeps } from "../helpers/sample-notification.js";
import { tempDir } from "../helpers/sink-harness.js";

describe("promptIsPerson", () => {
  it.each([
    [undefined, true],
    [null, true],
    ["user", true],
    ["sdk", false],
    ["system", false],
    ["loop_wakeup", false],
    ["schedule_wakeup", false],
    ["poll_event", false],
    ["something_new", false],
  ])("source %j → %s", (source, expected) => {
    expect(promptIsPerson(source)).toBe(expected);
  });
});

describe("noteAnswer: the marker that voids a session's follow-ups", () => {
  const captured = fixtureJson("claude-code/UserPromptSubmit.json");

  it.each([
    [{}, true], // the captured payload (Claude Code 2.1.197 sent no source)
    [{ source: "user" }, true],
    [{ source: "loop_wakeup" }, false],
    [{ source: "schedule_wakeup" }, false],
    [{ source: "sdk" }, false],
  ])("%j answers the session: %s", (patch, answers) => {
    const deps = testDeps({ XDG_STATE_HOME: tempDir("answers") }, () => 1_000);
    const session = noteAnswer(JSON.stringify({ ...captured, ...patch }), deps);
    expect(session).toBe(captured.session_id);
    const marked = answeredAt(deps, sessionKey(String(captured.session_id)), "prompt");
    expect(marked).toBe(answers ? 1_000 : undefined);
  });
});
