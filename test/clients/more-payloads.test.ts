// The payloads of the clients added after the first six, as their adapters read them: Qwen Code's
// and Auggie's captured from the real clients; the Auggie stop causes a run does not produce are
// written from its bundle, Crush's from its source, Qoder CLI's from its bundle, Cursor's from its documentation (see each
// folder's README).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isFailure, type Client, type HookEvent } from "../../src/core/hook-event.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";

const DIR = join(import.meta.dirname, "..", "fixtures", "payloads");

type Expected = { ignored: string } | { name: string; failure: boolean; fields: object };

const QWEN = "/tmp/qw/proj";
const AUGGIE = "/home/dev/projects/shop-api";
const AUGGIE_SESSION = "c0f3b7a2-1d4e-4f5a-9b8c-7e6d5c4b3a21";
const CRUSH = "/home/user/project";
const CURSOR = "/path/to/project";
const CURSOR_SESSION = "cdefee2d-2727-4b73-bf77-d9d830f31d2a";
const PI = { sessionId: "019a2b3c-4d5e-7f60-8a9b-0c1d2e3f4a5b", cwd: "/tmp/pi/proj" };
const QODER = { sessionId: "7d2c4e1a-5b3f-4a9e-8c61-2f0e9b7a4d35", cwd: "/home/dev/shop-api" };

const EXPECTED: Record<string, { client: Client; event: Expected }> = {
  "qwen-code/Notification-auth_success.json": {
    client: "qwen-code",
    event: { ignored: "Notification (auth_success)" },
  },
  "qwen-code/Notification-permission_prompt.json": {
    client: "qwen-code",
    event: {
      name: "Notification",
      failure: false,
      fields: {
        cwd: QWEN,
        notificationType: "permission_prompt",
        message: "Qwen Code needs your permission to use run_shell_command",
      },
    },
  },
  "qwen-code/Notification-idle_prompt.json": {
    client: "qwen-code",
    event: {
      name: "Notification",
      failure: false,
      fields: { cwd: QWEN, notificationType: "idle_prompt" },
    },
  },
  // Installed for no event: the permission prompt's Notification says it once.
  "qwen-code/PermissionRequest.json": {
    client: "qwen-code",
    event: { name: "PermissionRequest", failure: false, fields: { cwd: QWEN } },
  },
  "qwen-code/Stop.json": {
    client: "qwen-code",
    event: {
      name: "Stop",
      failure: false,
      fields: { cwd: QWEN, lastAssistantMessage: "All done: the mock model answered." },
    },
  },
  "qwen-code/StopFailure.json": {
    client: "qwen-code",
    event: {
      name: "StopFailure",
      failure: true,
      fields: {
        cwd: QWEN,
        error: "invalid_request",
        lastAssistantMessage: "[API Error: 400 mock: this request is refused]",
      },
    },
  },
  "qwen-code/SessionEnd-prompt_input_exit.json": {
    client: "qwen-code",
    event: {
      name: "SessionEnd",
      failure: false,
      fields: { cwd: QWEN, reason: "prompt_input_exit" },
    },
  },
  "auggie/Stop-end_turn.json": {
    client: "auggie",
    event: {
      name: "Stop",
      failure: false,
      fields: {
        sessionId: "e06d7ee6-652d-484c-bcb7-f2892140c673",
        cwd: "/tmp/ag/proj",
        lastAssistantMessage: "All done: the mock model answered.",
      },
    },
  },
  "auggie/SessionEnd.json": {
    client: "auggie",
    event: {
      name: "SessionEnd",
      failure: false,
      fields: { sessionId: "e06d7ee6-652d-484c-bcb7-f2892140c673", cwd: "/tmp/ag/proj" },
    },
  },
  "auggie-documented/Stop-max_iterations.json": {
    client: "auggie",
    event: {
      name: "StopFailure",
      failure: true,
      fields: { sessionId: AUGGIE_SESSION, cwd: AUGGIE, error: "max_iterations" },
    },
  },
  "auggie-documented/Stop-interrupted.json": {
    client: "auggie",
    event: { ignored: "Stop (interrupted)" },
  },
  "crush-documented/PermissionRequest.json": {
    client: "crush",
    event: {
      name: "Notification",
      failure: false,
      fields: {
        sessionId: "313909e",
        cwd: CRUSH,
        notificationType: "permission_prompt",
        message: "Crush needs your permission",
      },
    },
  },
  "crush-documented/TurnEnd.json": {
    client: "crush",
    event: {
      name: "Stop",
      failure: false,
      fields: { sessionId: "313909e", cwd: CRUSH, lastAssistantMessage: "Done: the tests pass." },
    },
  },
  "crush-documented/StopFailure.json": {
    client: "crush",
    event: {
      name: "StopFailure",
      failure: true,
      fields: { sessionId: "313909e", cwd: CRUSH, error: "turn_error" },
    },
  },
  "crush-documented/SessionEnd.json": {
    client: "crush",
    event: { name: "SessionEnd", failure: false, fields: { sessionId: "313909e", cwd: CRUSH } },
  },
  "cursor-documented/stop-completed.json": {
    client: "cursor",
    event: { name: "Stop", failure: false, fields: { sessionId: CURSOR_SESSION, cwd: CURSOR } },
  },
  "cursor-documented/stop-error.json": {
    client: "cursor",
    event: {
      name: "StopFailure",
      failure: true,
      fields: { sessionId: CURSOR_SESSION, cwd: CURSOR, error: "error" },
    },
  },
  "cursor-documented/stop-aborted.json": {
    client: "cursor",
    event: { ignored: "stop (aborted)" },
  },
  "cursor-documented/sessionEnd-completed.json": {
    client: "cursor",
    event: {
      name: "SessionEnd",
      failure: false,
      fields: { sessionId: CURSOR_SESSION, cwd: CURSOR, reason: "completed" },
    },
  },
  "cursor-documented/sessionEnd-error.json": {
    client: "cursor",
    event: {
      name: "SessionEnd",
      failure: true,
      fields: { sessionId: CURSOR_SESSION, cwd: CURSOR, reason: "error" },
    },
  },
  "qoder-documented/Notification-permission_prompt.json": {
    client: "qoder",
    event: {
      name: "Notification",
      failure: false,
      fields: {
        ...QODER,
        notificationType: "permission_prompt",
        message: "Tool Bash requires confirmation",
      },
    },
  },
  "qoder-documented/Notification-auth_success.json": {
    client: "qoder",
    event: { ignored: "Notification (auth_success)" },
  },
  "qoder-documented/Stop.json": {
    client: "qoder",
    event: {
      name: "Stop",
      failure: false,
      fields: { ...QODER, lastAssistantMessage: "Done: the tests pass." },
    },
  },
  "qoder-documented/StopFailure-rate_limit.json": {
    client: "qoder",
    event: { name: "StopFailure", failure: true, fields: { ...QODER, error: "rate_limit" } },
  },
  "qoder-documented/SessionEnd.json": {
    client: "qoder",
    event: {
      name: "SessionEnd",
      failure: false,
      fields: { ...QODER, reason: "prompt_input_exit" },
    },
  },
  "pi/agent_settled-stop.json": {
    client: "pi",
    event: {
      name: "Stop",
      failure: false,
      fields: { ...PI, lastAssistantMessage: "All done: the mock model answered." },
    },
  },
  "pi/agent_settled-error.json": {
    client: "pi",
    event: { name: "StopFailure", failure: true, fields: { ...PI, error: "invalid_request" } },
  },
  "pi/agent_settled-rate_limit.json": {
    client: "pi",
    event: { name: "StopFailure", failure: true, fields: { ...PI, error: "rate_limit" } },
  },
  "pi/agent_settled-aborted.json": {
    client: "pi",
    event: { ignored: "agent_settled (aborted)" },
  },
  "pi/session_shutdown-quit.json": {
    client: "pi",
    event: { name: "SessionEnd", failure: false, fields: { ...PI, reason: "quit" } },
  },
  "pi/session_shutdown-new.json": {
    client: "pi",
    event: { ignored: "session_shutdown (new)" },
  },
};

const NAMES = readdirSync(DIR, { recursive: true })
  .map(String)
  .filter((name) => name.endsWith(".json"))
  .map((name) => name.replaceAll("\\", "/"))
  .sort();

describe("the added clients' payloads, read by their adapters", () => {
  it("has an expectation for every payload file", () => {
    expect(NAMES).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(NAMES)("%s", (name) => {
    const { client, event: expected } = EXPECTED[name]!;
    const text = readFileSync(join(DIR, name), "utf8");
    const event = parseEvent(text, client);
    if ("ignored" in expected) {
      expect(event).toEqual(expected);
      return;
    }
    const parsed = event as HookEvent;
    expect(parsed.name).toBe(expected.name);
    expect(parsed.client).toBe(client);
    expect(parsed).toMatchObject(expected.fields);
    // Their transcripts are not Claude Code's: the path is not passed on to be read.
    expect(parsed.transcriptPath).toBeUndefined();
    expect(isFailure(parsed)).toBe(expected.failure);
    expect(parsed.raw).toEqual(JSON.parse(text));
  });

  // A hand-written entry without --client: the payload alone names the client.
  it.each(NAMES)("%s without --client", (name) => {
    const text = readFileSync(join(DIR, name), "utf8");
    const event = parseEvent(text);
    const { client, event: expected } = EXPECTED[name]!;
    if ("ignored" in expected) expect(event).toEqual(expected);
    else expect((event as HookEvent).client).toBe(client);
  });
});
