// The real clients, pinned (pinned.json), driven through one turn against a mock model on
// loopback after `hook-notify install`: the notifications must reach a local webhook, and every
// hook run must exit 0 with nothing on stdout. .ci/run installs the clients into a cache folder.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { BIN, ROOT } from "../helpers/run-bin.js";
import {
  ANSWER,
  BACKGROUND_PROMPT,
  NOTIFY_INPUT,
  NOTIFY_TOOL,
  QUESTION,
  SESSION_SCRIPT,
  startMockModel,
  type MockModel,
} from "./mock-model.js";
import { startFakeNtfy, type FakeNtfy } from "../helpers/ntfy-server.js";
import { startFakeTelegram } from "../helpers/telegram-server.js";
import {
  addPhone,
  addTelegramPhone,
  CLAUDE_MCP_ENV,
  claudeEnv,
  driveInTmux,
  expectTurn,
  install,
  makeBox,
  PHONE_BOT_TOKEN,
  PHONE_TOKEN,
  PHONE_TOPIC,
  pinnedClients,
  type Box,
  run,
  shq,
  skipClaudeWelcome,
  type Drive,
  type Turn,
  runOpencodeFamily,
} from "./harness.js";

const pinned = pinnedClients<Id>();
type Id = "claude-code" | "droid" | "codex" | "gemini" | "copilot" | "opencode";
const CLIENTS_DIR = process.env["HOOK_NOTIFY_CLIENTS"] ?? join(ROOT, ".cache", "clients");

// <dir>/<id>-<version>/node_modules/.bin/<bin>, as `npm install --prefix` lays it out.
function clientBin(id: Id): string {
  const { version, bin } = pinned[id];
  return join(CLIENTS_DIR, `${id}-${version}`, "node_modules", ".bin", bin);
}

const DONE_AND_END: Turn = {
  what: "one turn: done and session-end notified",
  behaviour: "text",
  sent: [
    { event: "SessionEnd", failure: false },
    { event: "Stop", failure: false, lastMessage: ANSWER },
  ],
  exit: 0,
};

// A print-mode session ends with reason "other", which hook-notify counts as a failure.
const DONE_AND_OTHER_END: Turn = {
  ...DONE_AND_END,
  sent: [{ event: "SessionEnd", failure: true }, DONE_AND_END.sent[1]!],
};

const TURNS: Record<Id, Turn[]> = {
  "claude-code": [
    { ...DONE_AND_OTHER_END, what: "a print-mode turn: done and session-end (reason other)" },
    {
      // hook-notify mcp registered in ~/.claude.json (as install --mcp writes it); the model calls
      // its notify tool, which goes the hooks' way to the same webhook.
      what: "a print-mode turn whose model calls hook-notify's MCP notify tool: the agent's notification (same session), done, session-end",
      behaviour: "notify",
      sent: [{ event: "AgentNotify", failure: false }, ...DONE_AND_OTHER_END.sent],
      exit: 0,
    },
    {
      // In the prompting mode: since 2.1.283 an interactive session starts in auto mode.
      what: "an interactive turn in tmux (permission mode default) whose Bash call waits for permission: needs-you, done after it is granted, session-end on /exit",
      behaviour: "permission",
      interactive: true,
      sent: [
        { event: "Notification", failure: false },
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      // install --approve; the phone (a local ntfy) presses Allow for this session: the command
      // runs, and the model's second call of the same command runs with no second question to
      // the phone and no prompt at the terminal (nothing is typed there).
      what: "an interactive turn in tmux whose command is allowed for this session from the phone: it runs, and runs again with no second question",
      behaviour: "session",
      interactive: true,
      approve: "allow-session",
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      // install --approve; the model asks a three-option question (AskUserQuestion), the phone
      // (a local ntfy) presses the second option: no dialog at the terminal, and the model's
      // next request carries that answer in the tool result.
      what: "an interactive turn in tmux whose AskUserQuestion is answered from the phone: the model reads the option chosen",
      behaviour: "question",
      interactive: true,
      answer: "PostgreSQL",
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      what: "an interactive turn in tmux (auto mode) whose force push auto mode blocks: blocked notified (PermissionDenied), done, session-end on /exit",
      behaviour: "denied",
      interactive: true,
      sent: [
        { event: "PermissionDenied", failure: false },
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      // Since 2.1.3xx subagents run in the background: the first Stop lists one running, and a
      // second turn and Stop follow when it ends. Only that one says done.
      what: "an interactive turn in tmux that starts a background subagent: one done (when it ended), subagent done, session-end on /exit",
      behaviour: "background",
      interactive: true,
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
        { event: "SubagentStop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      // StopFailure (installed for Claude Code) carries the API's error text as its last message.
      // Interactive: a print-mode session may exit before its StopFailure hook starts (2.1.332).
      what: "an interactive turn in tmux the model API refuses: failure notified (StopFailure), no done, session-end on /exit",
      behaviour: "error",
      interactive: true,
      sent: [
        { event: "SessionEnd", failure: false },
        {
          event: "StopFailure",
          failure: true,
          lastMessage: "Please run /login · API Error: 403 mock: this request is refused",
        },
      ],
    },
  ],
  // droid exec with a BYOK model ("anthropic" provider) on loopback; it ends with reason "other".
  droid: [{ ...DONE_AND_OTHER_END, what: "an exec turn: done and session-end (reason other)" }],
  codex: [
    DONE_AND_END,
    {
      what: "an interactive turn in tmux (approval on request) whose command asks for escalation: needs-you, done after it is approved, session-end on /exit",
      behaviour: "permission",
      interactive: true,
      sent: [
        { event: "Notification", failure: false },
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      // install --approve puts `approve` in place of the needs-you notification: the phone is
      // asked, Allow is pressed there, and Codex runs the command with no prompt at the terminal.
      what: "an interactive turn in tmux (approval on request) whose escalation approve answers from the phone (Allow): no terminal prompt, done, session-end on /exit",
      behaviour: "permission",
      interactive: true,
      approve: "allow",
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      // The phone is a Telegram bot; the person replies a reason instead of pressing a button:
      // Codex gets a deny with it as the message, and the model reads it in the call's output.
      what: "an interactive turn in tmux (approval on request) whose escalation is denied from Telegram with a typed reason: the command does not run, the model reads the reason",
      behaviour: "permission",
      interactive: true,
      approve: "deny",
      reason: "not now: use the staging copy",
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      what: "an interactive turn in tmux (approval on request) whose escalation approve answers from the phone (Deny): the command does not run, done, session-end on /exit",
      behaviour: "permission",
      interactive: true,
      approve: "deny",
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
  ],
  gemini: [
    DONE_AND_END,
    {
      what: "an interactive turn in tmux whose shell command waits for permission: needs-you, done after it is allowed once, session-end on /quit",
      behaviour: "permission",
      interactive: true,
      sent: [
        { event: "Notification", failure: false },
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
  ],
  // Copilot CLI's agentStop carries no last message; a refused model call fires errorOccurred
  // (StopFailure) and ends the session with reason "error".
  copilot: [
    { ...DONE_AND_END, sent: [DONE_AND_END.sent[0]!, { event: "Stop", failure: false }] },
    {
      what: "a turn the model API refuses: failure notified (errorOccurred, session end), no done",
      behaviour: "error",
      sent: [
        { event: "SessionEnd", failure: true },
        { event: "StopFailure", failure: true },
      ],
    },
    {
      what: "an interactive turn in tmux whose shell command waits for permission: needs-you, done after it is granted, session-end on /exit",
      behaviour: "permission",
      interactive: true,
      sent: [
        { event: "Notification", failure: false },
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false },
      ],
    },
  ],
  // OpenCode has no session end. `opencode run` asks for the shell command's permission (the
  // needs-you notification) and rejects it itself; a failed model stream is session.error.
  opencode: [
    {
      what: "a turn that asks for permission: needs-you and done notified",
      behaviour: "permission",
      sent: [
        { event: "Notification", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
      exit: 0,
    },
    {
      what: "a turn whose model stream fails: failure notified, no done",
      behaviour: "stream-error",
      sent: [{ event: "StopFailure", failure: true }],
    },
  ],
};

const CLIENT_TIMEOUT = 240_000;

// pinned.json also pins the clients more-clients.test.ts drives.
describe.each((Object.keys(pinned) as Id[]).filter((id) => id in TURNS))("real %s", (id) => {
  const { package: name, version } = pinned[id];
  const bin = clientBin(id);
  const isInstalled = existsSync(bin);
  const skipped = `is not installed in ${CLIENTS_DIR}, skipped: .ci/run installs it (npm install --prefix ${CLIENTS_DIR}/${id}-${version} ${name}@${version})`;

  // Said once on stderr too: a skipped test's title is not shown by every reporter.
  if (!isInstalled) process.stderr.write(`real-client test: ${name}@${version} ${skipped}\n`);
  it.skipIf(!isInstalled).each(TURNS[id].map((turn) => [turn.what, turn] as const))(
    `${name}@${version}: install, %s`,
    async (_what, turn) => {
      const webhook = await startHttpServer([{ status: 200 }]);
      const model = await startMockModel(turn.behaviour);
      const box = await makeBox(webhook);
      const bot = turn.reason ? await startFakeTelegram({ token: PHONE_BOT_TOKEN }) : undefined;
      const asks = turn.approve !== undefined || turn.answer !== undefined;
      const phone = asks && !bot ? await startFakeNtfy({ token: PHONE_TOKEN }) : undefined;
      if (phone !== undefined) await addPhone(box, phone);
      if (bot !== undefined) await addTelegramPhone(box, bot);
      await install(box, id, asks);
      const result = await RUNNERS[id]({ box, bin, model, turn, webhook, phone, bot });
      if (turn.exit !== undefined) {
        expect(result.stdout).toContain(ANSWER);
        expect(result.code).toBe(turn.exit);
      }
      await expectTurn(box, webhook, model, turn);
      if (turn.behaviour === "notify") expectAgentsOwnNotification(webhook);
      if (turn.behaviour === "session") expectRanTwiceAskedOnce(box, phone);
      if (turn.reason !== undefined) expectModelRead(model, turn.reason);
      // The tool result as Claude Code 2.1.332 words it, inside the JSON body.
      if (turn.answer !== undefined)
        expectModelRead(model, `\\"${QUESTION}\\"=\\"${turn.answer}\\"`);
    },
    CLIENT_TIMEOUT,
  );
});

type Result = Awaited<ReturnType<typeof run>>;

// Deny with a reason: a request to the model after the hook ran carries the person's words.
function expectModelRead(model: MockModel, reason: string): void {
  expect((model.bodies ?? []).some((body) => body.includes(reason))).toBe(true);
}

// Allow for this session: both calls ran (two lines), and the phone was asked once.
function expectRanTwiceAskedOnce(box: Box, phone: FakeNtfy | undefined): void {
  expect(readFileSync(join(box.project, "hn-probe.txt"), "utf8")).toBe("ran\nran\n");
  expect(phone?.messages.filter((m) => m.topic === PHONE_TOPIC)).toHaveLength(1);
}

// The notify call's notification: the model's title, and the session the client ran it in (the
// client tells its MCP servers in CLAUDE_CODE_SESSION_ID): the same as its Stop hook's.
function expectAgentsOwnNotification(webhook: TestHttpServer): void {
  const sent = webhook.requests.map(
    (r) =>
      (JSON.parse(r.body) as { data: { event: string; title: string; session?: { id?: string } } })
        .data,
  );
  const notify = sent.find((d) => d.event === "AgentNotify");
  const stop = sent.find((d) => d.event === "Stop");
  expect(notify?.title).toContain(NOTIFY_INPUT.title);
  expect(notify?.session?.id).toBeDefined();
  expect(notify?.session?.id).toBe(stop?.session?.id);
}

// Claude Code: ANTHROPIC_BASE_URL on loopback. Print mode for a one-shot turn; the interactive
// turn runs in tmux, past onboarding, API-key approval and the folder trust (hooks wait for it).
async function runClaudeCode(drive: Drive): Promise<Result> {
  const { box, bin, model, turn } = drive;
  const env = claudeEnv(box, model);
  if (turn.behaviour === "notify") {
    // Run by node directly: the tracer holds a program's stdout until it exits, and MCP's is a
    // conversation. The tool is allowed, as a person allows it once.
    const server = { type: "stdio", command: process.execPath, args: [BIN, "mcp"] };
    await writeFile(
      join(box.home, ".claude.json"),
      JSON.stringify({ mcpServers: { "hook-notify": server } }),
    );
    const args = ["-p", "say hi", "--allowedTools", NOTIFY_TOOL];
    return run(bin, args, {
      env: { ...env, ...CLAUDE_MCP_ENV },
      cwd: box.project,
      timeoutMs: 180_000,
    });
  }
  if (turn.interactive !== true) {
    return run(bin, ["-p", "say hi"], { env, cwd: box.project, timeoutMs: 180_000 });
  }
  await skipClaudeWelcome(box);
  if (turn.behaviour === "session")
    await writeFile(join(box.project, "hn-probe.sh"), SESSION_SCRIPT);
  // Auto mode's check runs on the vendor's server unless CLAUDE_CODE_AUTO_MODE_SERVER=0: here it
  // asks the loopback model, whose answer is no verdict, so the action is blocked.
  const [mode, prompt] =
    turn.behaviour === "denied"
      ? ["auto", "push it"]
      : ["default", turn.behaviour === "background" ? BACKGROUND_PROMPT : "make the probe file"];
  return driveInTmux(
    drive,
    { ...env, TERM: "xterm-256color", CLAUDE_CODE_AUTO_MODE_SERVER: "0" },
    `${shq(bin)} --permission-mode ${mode} ${shq(prompt)}`,
  );
}

// Droid: `droid exec` with a BYOK custom model whose "anthropic" provider points at loopback.
async function runDroid({ box, bin, model }: Drive): Promise<Result> {
  const settings = join(box.home, ".factory", "settings.json");
  await mkdir(dirname(settings), { recursive: true });
  const custom = {
    model: "mock-model",
    displayName: "Mock",
    baseUrl: model.url,
    apiKey: "mock-key",
    provider: "anthropic",
    maxOutputTokens: 1024,
  };
  await writeFile(settings, JSON.stringify({ customModels: [custom] }));
  const args = ["exec", "-m", "custom:mock-model", "say hi"];
  return run(bin, args, { env: box.env, cwd: box.project, timeoutMs: 180_000 });
}

// Codex: a provider on loopback, the project trusted, approval on request; hook trust is bypassed
// for this run only (a person trusts the entries once in /hooks).
async function runCodex(drive: Drive): Promise<Result> {
  const { box, bin, model, turn } = drive;
  const codexHome = join(box.home, ".codex");
  await mkdir(codexHome, { recursive: true });
  const toml = [
    'model = "gpt-5-mock"',
    'model_provider = "mock"',
    'approval_policy = "on-request"',
    "",
    "[model_providers.mock]",
    'name = "mock"',
    `base_url = ${JSON.stringify(`${model.url}/v1`)}`,
    'wire_api = "responses"',
    "",
    `[projects.${JSON.stringify(box.project)}]`,
    'trust_level = "trusted"',
    "",
  ].join("\n");
  await writeFile(join(codexHome, "config.toml"), toml);
  const env = { ...box.env, CODEX_HOME: codexHome };
  if (turn.interactive === true) {
    const command = `${shq(bin)} --dangerously-bypass-hook-trust 'make the probe file'`;
    return driveInTmux(drive, { ...env, TERM: "xterm-256color" }, command);
  }
  const args = ["exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "say hi"];
  return run(bin, args, { env, cwd: box.project, timeoutMs: 180_000 });
}

// Gemini CLI: the API on loopback, an API key it never checks, the folder trusted.
async function runGemini(drive: Drive): Promise<Result> {
  const { box, bin, model, turn } = drive;
  const settings = join(box.home, ".gemini", "settings.json");
  await mkdir(dirname(settings), { recursive: true });
  await writeFile(
    settings,
    JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }),
  );
  const env = {
    ...box.env,
    GEMINI_API_KEY: "test-key",
    GOOGLE_GEMINI_BASE_URL: model.url,
    GEMINI_CLI_TRUST_WORKSPACE: "true",
  };
  if (turn.interactive === true) {
    const command = `${shq(bin)} -m gemini-2.5-flash -i 'make the probe file'`;
    return driveInTmux(drive, { ...env, TERM: "xterm-256color" }, command, "/quit");
  }
  return run(bin, ["-p", "say hi", "-m", "gemini-2.5-flash"], {
    env,
    cwd: box.project,
    timeoutMs: 180_000,
  });
}

// Copilot CLI: offline mode with a BYOK provider on loopback; COPILOT_ALLOW_ALL trusts the folder
// (which loads its .github/hooks) for this run.
async function runCopilot(drive: Drive): Promise<Result> {
  const { box, bin, model, turn } = drive;
  const env = {
    ...box.env,
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: `${model.url}/v1`,
    COPILOT_MODEL: "gpt-mock",
  };
  if (turn.interactive !== true) {
    const options = { env: { ...env, COPILOT_ALLOW_ALL: "true" }, cwd: box.project };
    return run(bin, ["-p", "say hi"], { ...options, timeoutMs: 180_000 });
  }
  // The folder is trusted (its .github/hooks load) but tools are not: the command asks first.
  const config = join(box.home, ".copilot", "config.json");
  await mkdir(dirname(config), { recursive: true });
  await writeFile(config, JSON.stringify({ trusted_folders: [box.project] }));
  return driveInTmux(
    drive,
    { ...env, TERM: "xterm-256color" },
    `${shq(bin)} -i 'make the probe file'`,
  );
}

// OpenCode: an OpenAI-compatible provider on loopback in its global config; shell commands need
// permission. The models.dev fetch, autoupdate and default plugins are off (offline).
async function runOpencode(drive: Drive): Promise<Result> {
  return runOpencodeFamily(drive, {
    folder: "opencode",
    file: "opencode.json",
    envPrefix: "OPENCODE",
  });
}

const RUNNERS: Record<Id, (drive: Drive) => Promise<Result>> = {
  "claude-code": runClaudeCode,
  droid: runDroid,
  codex: runCodex,
  gemini: runGemini,
  copilot: runCopilot,
  opencode: runOpencode,
};
