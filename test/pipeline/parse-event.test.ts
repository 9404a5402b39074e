import { describe, expect, it } from "vitest";
import { HookNotifyError } from "../../src/errors.js";
import { isFailure, type HookEvent, type IgnoredEvent } from "../../src/core/hook-event.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";
import {
  clientOfFixture,
  eventOfFixture,
  FIXTURE_NAMES,
  fixtureJson,
  fixtureText,
  toCamelKeys,
} from "./event-fixtures.js";

const CLAUDE_SESSION = "4cf0a0c5-3424-484b-98e4-44b5c7712fe3";
const DROID_SESSION = "9f3c2a10-5b7e-4d21-9c8e-2f4a6b1d0e77";
const CWD = "/home/dev/projects/shop-api";
const claudeTranscript = (id: string): string =>
  `/home/dev/.claude/projects/-home-dev-projects-shop-api/${id}.jsonl`;
const droidTranscript = (id: string): string =>
  `/home/dev/.factory/sessions/-home-dev-projects-shop-api/${id}.jsonl`;

const claude = {
  sessionId: CLAUDE_SESSION,
  transcriptPath: claudeTranscript(CLAUDE_SESSION),
  cwd: CWD,
};
const background = {
  sessionId: "e270f92d-957b-478d-89fa-28de91e5b514",
  transcriptPath: claudeTranscript("e270f92d-957b-478d-89fa-28de91e5b514"),
  cwd: CWD,
  permissionMode: "default",
};
const droid = {
  sessionId: DROID_SESSION,
  transcriptPath: droidTranscript(DROID_SESSION),
  cwd: CWD,
  permissionMode: "auto-low",
};

type Normalized = Omit<HookEvent, "raw">;

// Every captured payload, the event it becomes (raw aside) and whether it counts as a failure.
const EXPECTED: Record<string, { event: Normalized | IgnoredEvent; failure?: boolean }> = {
  // Claude Code 2.1.197, captured on 2026-11-23: `claude -p` with ANTHROPIC_BASE_URL at a loopback
  // Messages mock that answered 400, and a StopFailure entry added by hand (install writes none)
  // whose command saved stdin. The session then ended with SessionEnd reason "other".
  "claude-code/StopFailure.json": {
    event: {
      name: "StopFailure",
      sessionId: "be4a3c7d-0297-41fb-a58c-7231ecab9a74",
      transcriptPath:
        "/tmp/cc/home/.claude/projects/-tmp-cc-proj/be4a3c7d-0297-41fb-a58c-7231ecab9a74.jsonl",
      cwd: "/tmp/cc/proj",
      lastAssistantMessage: "API Error: 400 mock: this request is refused",
      error: "unknown",
    },
    failure: true,
  },
  // Claude Code 2.1.332, captured: `claude -p` against a Messages mock answering 429, once plain
  // and once with a reset header, which Claude Code writes into its message.
  "claude-code/StopFailure-rate_limit.json": {
    event: {
      name: "StopFailure",
      sessionId: "3c7346b8-7ae6-42ec-b98f-01898156d55d",
      transcriptPath: claudeTranscript("3c7346b8-7ae6-42ec-b98f-01898156d55d"),
      cwd: CWD,
      lastAssistantMessage:
        "API Error: Request rejected (429) · mock: rate limit reached for requests",
      error: "rate_limit",
    },
    failure: true,
  },
  "claude-code/StopFailure-rate_limit-resets.json": {
    event: {
      name: "StopFailure",
      sessionId: "bb41effc-d57e-4f1b-af1f-91f6f456157b",
      transcriptPath: claudeTranscript("bb41effc-d57e-4f1b-af1f-91f6f456157b"),
      cwd: CWD,
      lastAssistantMessage:
        "API Error: Request rejected (429) · spend limit reached · resets 2am (UTC) · ask your admin for more",
      error: "rate_limit",
    },
    failure: true,
  },
  // OpenCode 1.18.33 (captured for real): bus events as hook-notify's plugin pipes them, plus the
  // plugin's directory and the session's last assistant text.
  "opencode/permission.asked.json": {
    event: {
      name: "Notification",
      client: "opencode",
      sessionId: "ses_df59d8fe6ffe0jR7BaNNkisKtc",
      cwd: "/tmp/oc3/my project",
      message: "OpenCode needs your permission to use external_directory",
      notificationType: "permission_prompt",
      toolName: "external_directory",
    },
    failure: false,
  },
  "opencode/session.error.json": {
    event: {
      name: "StopFailure",
      client: "opencode",
      sessionId: "ses_df59d4e91ffeRMxTM4LAkVzHbO",
      cwd: "/tmp/oc3/my project",
      error: "APIError",
      errorDetails: "mock failure",
    },
    failure: true,
  },
  "opencode/session.idle-after-permission.json": {
    event: {
      name: "Stop",
      client: "opencode",
      sessionId: "ses_df59d8fe6ffe0jR7BaNNkisKtc",
      cwd: "/tmp/oc3/my project",
    },
    failure: false,
  },
  "opencode/session.idle.json": {
    event: {
      name: "Stop",
      client: "opencode",
      sessionId: "ses_df59dc96bffeB91r319YmXnwt2",
      cwd: "/tmp/oc3/my project",
      lastAssistantMessage: "All done: the mock model answered.",
    },
    failure: false,
  },
  // Copilot CLI 1.0.102 (captured for real): no event name in the payload but the notification's;
  // the entry's --event names it (the file name here).
  "copilot/agentStop.json": {
    event: {
      name: "Stop",
      client: "copilot",
      sessionId: "457fefde-5a52-43e2-929c-8dee3281064d",
      cwd: "/tmp/agents-mock/proj",
      stopHookActive: false,
    },
    failure: false,
  },
  "copilot/errorOccurred.json": {
    event: {
      name: "StopFailure",
      client: "copilot",
      sessionId: "728781a2-1f43-4c07-83ea-2eff2755eea4",
      cwd: "/tmp/agents-mock/proj",
      error: "model_call",
      errorDetails:
        '{"message":"mock: this request is refused","type":"invalid_request_error","code":"mock_refused"}',
    },
    failure: true,
  },
  "copilot/notification.json": {
    event: {
      name: "Notification",
      client: "copilot",
      sessionId: "457fefde-5a52-43e2-929c-8dee3281064d",
      cwd: "/tmp/agents-mock/proj",
      message: "Run command: touch hn-probe.txt",
      title: "Permission needed",
      notificationType: "permission_prompt",
    },
    failure: false,
  },
  "copilot/permissionRequest.json": { event: { ignored: "permissionRequest" } },
  "copilot/sessionEnd-error.json": {
    event: {
      name: "SessionEnd",
      client: "copilot",
      sessionId: "728781a2-1f43-4c07-83ea-2eff2755eea4",
      cwd: "/tmp/agents-mock/proj",
      reason: "error",
    },
    failure: true,
  },
  "copilot/sessionEnd.json": {
    event: {
      name: "SessionEnd",
      client: "copilot",
      sessionId: "457fefde-5a52-43e2-929c-8dee3281064d",
      cwd: "/tmp/agents-mock/proj",
      reason: "user_exit",
    },
    failure: false,
  },
  "copilot/sessionStart.json": { event: { ignored: "sessionStart" } },
  "copilot/userPromptSubmitted.json": { event: { ignored: "userPromptSubmitted" } },
  // Codex 0.169.0 and Gemini CLI 0.61.0, captured from the real clients (see the fixtures' README):
  // their own names and fields become hook-notify's, and their transcripts are not read.
  "codex/PermissionRequest.json": {
    event: {
      name: "Notification",
      client: "codex",
      sessionId: "01a209b0-03e5-71a1-adeb-437cc4be0796",
      cwd: "/tmp/agents-mock/proj",
      permissionMode: "default",
      message: "Codex needs your permission to use Bash",
      notificationType: "permission_prompt",
      toolName: "Bash",
    },
    failure: false,
  },
  "codex/SessionEnd.json": {
    event: {
      name: "SessionEnd",
      client: "codex",
      sessionId: "01a209ac-d23c-78e2-92c9-cd5224478f3f",
      cwd: "/tmp/agents-mock/proj",
    },
    failure: false,
  },
  "codex/SessionStart.json": { event: { ignored: "SessionStart" } },
  "codex/Stop.json": {
    event: {
      name: "Stop",
      client: "codex",
      sessionId: "01a209ac-d23c-78e2-92c9-cd5224478f3f",
      cwd: "/tmp/agents-mock/proj",
      permissionMode: "bypassPermissions",
      lastAssistantMessage: "All done: the mock model answered.",
      stopHookActive: false,
    },
    failure: false,
  },
  "codex/notify-agent-turn-complete.json": {
    event: {
      name: "Stop",
      client: "codex",
      sessionId: "01a209ac-d23c-78e2-92c9-cd5224478f3f",
      cwd: "/tmp/agents-mock/proj",
      lastAssistantMessage: "All done: the mock model answered.",
    },
    failure: false,
  },
  "codex/notify-agent-turn-complete-tui.json": {
    event: {
      name: "Stop",
      client: "codex",
      sessionId: "01a209b0-03e5-71a1-adeb-437cc4be0796",
      cwd: "/tmp/agents-mock/proj",
      lastAssistantMessage: "All done: the mock model answered.",
    },
    failure: false,
  },
  // The TUI's own turn that writes the task title (notify only): not a turn the person waits for.
  "codex/notify-title-turn.json": { event: { ignored: "agent-turn-complete (title)" } },
  "gemini/AfterAgent.json": {
    event: {
      name: "Stop",
      client: "gemini",
      sessionId: "ce90ab58-b413-4d6b-b734-ed01b69b17a9",
      cwd: "/tmp/agents-mock/proj",
      lastAssistantMessage: "All done: the mock model answered.",
      stopHookActive: false,
    },
    failure: false,
  },
  "gemini/Notification.json": {
    event: {
      name: "Notification",
      client: "gemini",
      sessionId: "7533ddbe-9356-4140-bb35-76edc32e01fb",
      cwd: "/tmp/agents-mock/proj",
      message: "Tool Confirm Shell Command requires execution",
      notificationType: "permission_prompt",
    },
    failure: false,
  },
  "gemini/SessionEnd.json": {
    event: {
      name: "SessionEnd",
      client: "gemini",
      sessionId: "ce90ab58-b413-4d6b-b734-ed01b69b17a9",
      cwd: "/tmp/agents-mock/proj",
      reason: "exit",
    },
    failure: false,
  },
  "gemini/SessionStart.json": { event: { ignored: "SessionStart" } },
  "claude-code/Notification.json": {
    event: {
      name: "Notification",
      ...claude,
      message: "Claude needs your permission",
      notificationType: "permission_prompt",
    },
    failure: false,
  },
  // Claude Code 2.1.332 (captured for real): auto mode's choice, an action it blocked, and a
  // turn that ends while its background subagent runs (a second turn and Stop follow).
  "claude-code/Notification-agent_needs_input.json": {
    event: {
      name: "Notification",
      sessionId: "485d01a5-9c89-41e1-b5bd-d83916756d86",
      transcriptPath: claudeTranscript("485d01a5-9c89-41e1-b5bd-d83916756d86"),
      cwd: CWD,
      message: "Auto mode can't check actions in this session and needs your choice",
      notificationType: "agent_needs_input",
    },
    failure: false,
  },
  "claude-code/PermissionDenied.json": {
    event: {
      name: "PermissionDenied",
      sessionId: "2175b33e-5201-4929-8699-3a7f06df9992",
      transcriptPath: claudeTranscript("2175b33e-5201-4929-8699-3a7f06df9992"),
      cwd: CWD,
      permissionMode: "auto",
      toolName: "Bash",
      reason:
        "Auto mode could not evaluate this action and is blocking it for safety — run with --debug for details",
    },
    failure: false,
  },
  "claude-code/Stop-background_tasks.json": {
    event: {
      name: "Stop",
      ...background,
      stopHookActive: false,
      lastAssistantMessage: "All done: the mock model answered.",
    },
    failure: false,
  },
  "claude-code/Stop-background_done.json": {
    event: {
      name: "Stop",
      ...background,
      stopHookActive: false,
      lastAssistantMessage: "All done: the mock model answered.",
    },
    failure: false,
  },
  "claude-code/SubagentStop-background.json": {
    event: {
      name: "SubagentStop",
      ...background,
      agentId: "a01abbc5ab3dd941b",
      agentType: "general-purpose",
      agentTranscriptPath: claudeTranscript(
        "e270f92d-957b-478d-89fa-28de91e5b514/subagents/agent-a01abbc5ab3dd941b",
      ),
      stopHookActive: false,
      lastAssistantMessage: "All done: the mock model answered.",
    },
    failure: false,
  },
  "claude-code/PermissionRequest.json": {
    event: { name: "PermissionRequest", ...claude, permissionMode: "default", toolName: "Bash" },
    failure: false,
  },
  "claude-code/SessionEnd-other.json": {
    event: {
      name: "SessionEnd",
      sessionId: "1aa7ab5a-aaed-4829-a0bd-4fd928d7cfd6",
      transcriptPath: claudeTranscript("1aa7ab5a-aaed-4829-a0bd-4fd928d7cfd6"),
      cwd: CWD,
      reason: "other",
    },
    failure: true,
  },
  "claude-code/SessionEnd-prompt_input_exit.json": {
    event: { name: "SessionEnd", ...claude, reason: "prompt_input_exit" },
    failure: false,
  },
  "claude-code/SessionStart.json": { event: { ignored: "SessionStart" } },
  "claude-code/Stop.json": {
    event: {
      name: "Stop",
      ...claude,
      permissionMode: "default",
      stopHookActive: false,
      lastAssistantMessage: "All done after the tool ran.",
    },
    failure: false,
  },
  "claude-code/SubagentStop.json": {
    event: {
      name: "SubagentStop",
      sessionId: "fd212acc-67ab-45cf-aa1a-18aedfd9e36c",
      transcriptPath: claudeTranscript("fd212acc-67ab-45cf-aa1a-18aedfd9e36c"),
      cwd: CWD,
      permissionMode: "default",
      agentId: "ae65e02e3f3f64f7a",
      agentType: "general-purpose",
      agentTranscriptPath: claudeTranscript(
        "fd212acc-67ab-45cf-aa1a-18aedfd9e36c/subagents/agent-ae65e02e3f3f64f7a",
      ),
      stopHookActive: false,
      lastAssistantMessage: "Subagent finished its part.",
    },
    failure: false,
  },
  "claude-code/UserPromptSubmit.json": { event: { ignored: "UserPromptSubmit" } },
  "droid-documented/Notification-idle.json": {
    event: { name: "Notification", ...droid, message: "Droid is waiting for your input" },
    failure: false,
  },
  "droid-documented/Notification-permission.json": {
    event: {
      name: "Notification",
      ...droid,
      message: "Droid needs your permission to use Execute",
    },
    failure: false,
  },
  "droid-documented/SessionEnd-prompt_input_exit.json": {
    event: { name: "SessionEnd", ...droid, reason: "prompt_input_exit" },
    failure: false,
  },
  "droid-documented/Stop-camelCase.json": {
    event: { name: "Stop", ...droid, stopHookActive: false },
    failure: false,
  },
  "droid-documented/Stop.json": {
    event: { name: "Stop", ...droid, stopHookActive: false },
    failure: false,
  },
  "droid-documented/SubagentStop.json": {
    event: { name: "SubagentStop", ...droid, stopHookActive: false },
    failure: false,
  },
  "droid/SessionEnd-other.json": {
    event: {
      name: "SessionEnd",
      sessionId: "2870579a-da5d-4fea-95cb-9d30e9faa8e4",
      transcriptPath: droidTranscript("2870579a-da5d-4fea-95cb-9d30e9faa8e4"),
      cwd: CWD,
      permissionMode: "off",
      reason: "other",
      sessionDurationMs: 74.74658203125,
      messageCount: 1,
    },
    failure: true,
  },
  "droid/SessionStart.json": { event: { ignored: "SessionStart" } },
  // Claude Code 2.1.332's other notification types and its usage-limit StopFailure, written from
  // its code (fixtures/events/claude-code-read/README.md): every field as it was written.
  ...Object.fromEntries(
    FIXTURE_NAMES.filter((name) => name.startsWith("claude-code-read/")).map((name) => {
      const json = fixtureJson(name);
      const event: Normalized = {
        name: json.hook_event_name as Normalized["name"],
        sessionId: json.session_id as string,
        transcriptPath: json.transcript_path as string,
        cwd: CWD,
        message: json.message as string | undefined,
        notificationType: json.notification_type as string | undefined,
        error: json.error as string | undefined,
        lastAssistantMessage: json.last_assistant_message as string | undefined,
      };
      const defined = Object.entries(event).filter(([, value]) => value !== undefined);
      return [
        name,
        { event: Object.fromEntries(defined) as Normalized, failure: json.error !== undefined },
      ];
    }),
  ),
};

function withoutRaw(event: HookEvent | IgnoredEvent): Normalized | IgnoredEvent {
  if ("ignored" in event) return event;
  const rest: Partial<HookEvent> = { ...event };
  delete rest.raw;
  return rest as Normalized;
}

function parseError(input: string): HookNotifyError {
  try {
    parseEvent(input);
  } catch (error) {
    if (error instanceof HookNotifyError) return error;
    throw error;
  }
  throw new Error("parseEvent did not throw");
}

describe("parseEvent over the captured payloads", () => {
  it("has an expectation for every fixture file", () => {
    expect(FIXTURE_NAMES).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(FIXTURE_NAMES)("%s", (name) => {
    const expected = EXPECTED[name]!;
    const event = parseEvent(fixtureText(name), clientOfFixture(name), eventOfFixture(name));
    expect(withoutRaw(event)).toEqual(expected.event);
    if ("ignored" in event) return;
    expect(event.raw).toEqual(fixtureJson(name));
    expect(isFailure(event)).toBe(expected.failure);
  });

  it.each(FIXTURE_NAMES.filter((name) => clientOfFixture(name) === undefined))(
    "%s with camelCase keys parses to the same event",
    (name) => {
      const camel = toCamelKeys(fixtureJson(name));
      const event = parseEvent(JSON.stringify(camel));
      expect(withoutRaw(event)).toEqual(EXPECTED[name]!.event);
      if (!("ignored" in event)) expect(event.raw).toEqual(camel);
    },
  );

  it("keeps keys it does not read in raw", () => {
    const event = parseEvent(fixtureText("claude-code/PermissionRequest.json")) as HookEvent;
    expect(event.raw).toMatchObject({
      prompt_id: "f2f1d580-243a-4590-837d-9207ff7efc4f",
      effort: { level: "high" },
      tool_input: { command: "touch /home/dev/projects/shop-api/created-by-agent" },
    });
    expect(event).not.toHaveProperty("toolInput");
    expect(event).not.toHaveProperty("promptId");
  });

  it("prefers the snake_case spelling when both are present", () => {
    const event = parseEvent(
      JSON.stringify({ hook_event_name: "Stop", session_id: "snake", sessionId: "camel" }),
    ) as HookEvent;
    expect(event.sessionId).toBe("snake");
  });

  it("treats null fields as absent", () => {
    const event = parseEvent(
      JSON.stringify({ hook_event_name: "Notification", message: null, session_id: null }),
    );
    expect(withoutRaw(event)).toEqual({ name: "Notification" });
  });
});

describe("parseEvent event names", () => {
  it.each(["UserPromptSubmit", "SessionStart", "PreToolUse", "PostToolUse", "MadeUpEvent", "stop"])(
    "ignores %s without an error",
    (name) => {
      expect(parseEvent(JSON.stringify({ hook_event_name: name, session_id: "s" }))).toEqual({
        ignored: name,
      });
    },
  );

  it.each([
    "Notification",
    "Stop",
    "SubagentStop",
    "SessionEnd",
    "StopFailure",
    "PermissionRequest",
  ])("knows %s", (name) => {
    const event = parseEvent(JSON.stringify({ hookEventName: name }));
    expect(event).toEqual({ name, raw: { hookEventName: name } });
  });
});

describe("failure", () => {
  it.each([
    ["error", true],
    ["other", true],
    ["prompt_input_exit", false],
    ["clear", false],
    ["logout", false],
    ["resume", false],
    [undefined, false],
  ])("SessionEnd with reason %s is a failure: %s", (reason, failure) => {
    const event = parseEvent(
      JSON.stringify({ hook_event_name: "SessionEnd", reason }),
    ) as HookEvent;
    expect(isFailure(event)).toBe(failure);
  });

  it.each(["Notification", "Stop", "SubagentStop", "PermissionRequest"])(
    "%s is never a failure, even with reason error",
    (name) => {
      const event = parseEvent(JSON.stringify({ hook_event_name: name, reason: "error" }));
      expect(isFailure(event as HookEvent)).toBe(false);
    },
  );

  it.each([
    [
      "string details",
      { error: "rate_limit", error_details: "429 Too Many Requests" },
      { error: "rate_limit", errorDetails: "429 Too Many Requests" },
    ],
    [
      "object details, camelCase",
      { error: "overloaded", errorDetails: { status: 529 } },
      { error: "overloaded", errorDetails: '{"status":529}' },
    ],
    ["no details", { error: "server_error" }, { error: "server_error" }],
    ["empty and non-string values dropped", { error: "", error_details: 42 }, {}],
  ])("StopFailure is a failure and keeps its error fields: %s", (_case, fields, expected) => {
    const raw = { hook_event_name: "StopFailure", session_id: "s", ...fields };
    const event = parseEvent(JSON.stringify(raw)) as HookEvent;
    expect(isFailure(event)).toBe(true);
    expect(withoutRaw(event)).toEqual({ name: "StopFailure", sessionId: "s", ...expected });
  });
});

describe("parseEvent rejects what it cannot use", () => {
  it.each([
    ["", "INPUT_EMPTY"],
    ["  \n\t", "INPUT_EMPTY"],
    ["not json", "INPUT_INVALID"],
    ['{"hook_event_name": "Stop"', "INPUT_INVALID"],
    ["[]", "INPUT_INVALID"],
    ["null", "INPUT_INVALID"],
    ['"Stop"', "INPUT_INVALID"],
    ["42", "INPUT_INVALID"],
    ["{}", "INPUT_INVALID"],
    ['{"session_id": "s"}', "INPUT_INVALID"],
  ])("%j → %s", (input, code) => {
    expect(parseError(input).code).toBe(code);
  });

  it("says that hook_event_name is missing", () => {
    expect(parseError('{"session_id":"s"}').message).toContain("hook_event_name is missing");
  });

  it("keeps the JSON syntax error as the cause", () => {
    expect(parseError("{oops").cause).toBeInstanceOf(SyntaxError);
  });

  it.each([
    ["hook_event_name", 5],
    ["hook_event_name", ""],
  ])("%s = %j → INPUT_INVALID naming the field", (field, value) => {
    const error = parseError(JSON.stringify({ [field]: value }));
    expect(error.code).toBe("INPUT_INVALID");
    expect(error.message).toContain(`${field}:`);
  });
});

describe("parseEvent is lenient with the fields it reads", () => {
  it.each([
    ["session_id", 42],
    ["transcript_path", ["a"]],
    ["cwd", {}],
    ["message", true],
    ["message", 42],
    ["notification_type", 1],
    ["reason", 0],
    ["last_assistant_message", { text: "hi" }],
    ["stop_hook_active", "false"],
    ["session_duration_ms", "74"],
    ["session_duration_ms", -1],
    ["message_count", "1"],
    ["message_count", -3],
  ])("%s = %j: the field is dropped and named, the event stays", (field, value) => {
    const event = parseEvent(
      JSON.stringify({ hook_event_name: "SessionEnd", reason: "error", [field]: value }),
    ) as HookEvent;
    expect(event.name).toBe("SessionEnd");
    expect(event.dropped).toEqual([expect.stringContaining(`${field}:`)]);
    if (field !== "reason") expect(isFailure(event)).toBe(true);
  });

  it.each([
    ["sessionId", 42, "session_id"],
    ["stopHookActive", 1, "stop_hook_active"],
    ["messageCount", "3", "message_count"],
  ])("camelCase %s = %j is dropped and named %s", (field, value, named) => {
    const event = parseEvent(
      JSON.stringify({ hookEventName: "Stop", [field]: value }),
    ) as HookEvent;
    expect(event.name).toBe("Stop");
    expect(event.dropped).toEqual([expect.stringContaining(`${named}:`)]);
  });

  it("keeps the good fields beside a bad one", () => {
    const event = parseEvent(
      JSON.stringify({ hook_event_name: "Stop", session_id: "s1", stop_hook_active: "true" }),
    ) as HookEvent;
    expect(withoutRaw(event)).toMatchObject({ name: "Stop", sessionId: "s1" });
    expect(event.stopHookActive).toBeUndefined();
  });

  it("cuts 5,000 levels of nesting in an unread field, so it can be stored and sent", () => {
    const deep = `${"[".repeat(5000)}1${"]".repeat(5000)}`;
    const event = parseEvent(
      `{"hook_event_name":"Stop","session_id":"s","deep":${deep}}`,
    ) as HookEvent;
    expect(event.sessionId).toBe("s");
    expect(event.dropped).toEqual([expect.stringContaining("deep")]);
    expect(() => JSON.stringify(event.raw)).not.toThrow();
  });

  it("does not check the types of keys it does not read", () => {
    const event = parseEvent(
      JSON.stringify({ hook_event_name: "Stop", prompt_id: 7, effort: "high", tool_input: null }),
    );
    expect(withoutRaw(event)).toEqual({ name: "Stop" });
  });
});
