// The real clients, pinned (pinned.json), driven through one turn against a mock model on
// loopback after `hook-notify install`: the notifications must reach a local webhook, and every
// hook run must exit 0 with nothing on stdout. .ci/run installs the clients into a cache folder.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import type { Decision } from "../../src/approve/answer.js";
import { decisionJson } from "../../src/approve/decision.js";
import { pressButton, startFakeNtfy, type FakeNtfy } from "../helpers/ntfy-server.js";
import { BIN, removeHome, ROOT } from "../helpers/run-bin.js";
import {
  ANSWER,
  BACKGROUND_PROMPT,
  startMockModel,
  type Behaviour,
  type MockModel,
} from "./mock-model.js";

/** The client versions this test and .ci/run use: the ones the adapters were verified against,
 * unless HOOK_NOTIFY_CLIENT_VERSIONS (`npm run test:clients -- --latest`) names others by id. */
const pinned = withVersions(
  JSON.parse(readFileSync(join(import.meta.dirname, "pinned.json"), "utf8")) as Record<Id, Pinned>,
  process.env["HOOK_NOTIFY_CLIENT_VERSIONS"],
);
type Id = "claude-code" | "droid" | "codex" | "gemini" | "copilot" | "opencode";
interface Pinned {
  package: string;
  version: string;
  bin: string;
}

// {"claude-code": "2.1.332"}: those clients at those versions, the others as pinned.
function withVersions(list: Record<Id, Pinned>, versions: string | undefined): Record<Id, Pinned> {
  if (versions === undefined || versions === "") return list;
  const wanted = JSON.parse(versions) as Partial<Record<Id, string>>;
  const entries = Object.entries(list).map(([id, c]) => [
    id,
    { ...c, version: wanted[id as Id] ?? c.version },
  ]);
  return Object.fromEntries(entries) as Record<Id, Pinned>;
}
const CLIENTS_DIR = process.env["HOOK_NOTIFY_CLIENTS"] ?? join(ROOT, ".cache", "clients");

// <dir>/<id>-<version>/node_modules/.bin/<bin>, as `npm install --prefix` lays it out.
function clientBin(id: Id): string {
  const { version, bin } = pinned[id];
  return join(CLIENTS_DIR, `${id}-${version}`, "node_modules", ".bin", bin);
}

interface Box {
  root: string;
  home: string;
  project: string;
  env: Record<string, string>;
  trace: string;
}

// A fresh HOME, a git project whose path has a space, and hook-notify behind a tracer that
// records each run's exit code and stdout size (the project wrapper runs $HOOK_NOTIFY_BIN).
async function makeBox(webhook: TestHttpServer): Promise<Box> {
  const root = await mkdtemp(join(tmpdir(), "hook-notify-real-"));
  onTestFinished(() => removeHome(root));
  const home = join(root, "home");
  const project = join(root, "my project");
  const trace = join(root, "trace.ndjson");
  await mkdir(join(root, "bin"), { recursive: true });
  await mkdir(project, { recursive: true });
  const tracer = join(root, "bin", "hook-notify");
  await writeFile(
    tracer,
    [
      "#!/bin/sh",
      `out=$(mktemp)`,
      `${shq(process.execPath)} ${shq(BIN)} "$@" > "$out"; code=$?`,
      `printf '{"code":%s,"stdoutBytes":%s}\\n' "$code" "$(wc -c < "$out" | tr -d ' ')" >> ${shq(trace)}`,
      `cat "$out"; rm -f "$out"`,
      `exit "$code"`,
      "",
    ].join("\n"),
  );
  await chmod(tracer, 0o755);
  const env = {
    HOME: home,
    PATH: [join(root, "bin"), dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(
      ":",
    ),
    HOOK_NOTIFY_BIN: tracer,
    NO_PROXY: "127.0.0.1,localhost",
    LANG: "C.UTF-8",
    TERM: "dumb",
    HOOK_NOTIFY_WORKER_IDLE_SECONDS: "0",
  };
  await run("git", ["init", "-q", project], { env });
  const config = join(home, ".config", "hook-notify", "config.json");
  await mkdir(dirname(config), { recursive: true });
  const events = [
    "Notification",
    "Stop",
    "SubagentStop",
    "SessionEnd",
    "StopFailure",
    "PermissionDenied",
  ];
  const sink = { type: "webhook", url: `${webhook.url}/agent`, events };
  await writeFile(config, JSON.stringify({ sinks: { hook: sink } }));
  return { root, home, project, env, trace };
}

function shq(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

// stdin is closed (Codex exec reads a piped stdin as more prompt); output is collected.
function run(
  file: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string; timeoutMs?: number },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const killer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

// The outbox worker a hook started may still be tidying up: let it finish before cleanup.
async function workerDone(box: Box): Promise<void> {
  const lock = join(box.home, ".local", "state", "hook-notify", "outbox", "worker.lock");
  for (let i = 0; i < 300 && existsSync(lock); i++) await new Promise((r) => setTimeout(r, 100));
}

async function install(box: Box, client: Id, approve = false): Promise<void> {
  const args = ["install", "--client", client, "--scope", "project", "--project-dir", box.project];
  if (approve) args.push("--approve");
  const result = await run(process.execPath, [BIN, ...args, "--yes"], { env: box.env });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
}

interface Sent {
  data: { event: string; client: string; lastMessage?: string; failure: boolean };
}

// The notifications the turn produced, once every hook run so far has been delivered.
async function delivered(webhook: TestHttpServer, count: number): Promise<Sent["data"][]> {
  await webhook.waitForRequests(count, 60_000);
  return webhook.requests.map((r) => (JSON.parse(r.body) as Sent).data);
}

function traced(box: Box): { code: number; stdoutBytes: number }[] {
  if (!existsSync(box.trace)) return [];
  return readFileSync(box.trace, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { code: number; stdoutBytes: number });
}

/** One turn a client is driven through, and the notifications it must produce. */
interface Turn {
  what: string;
  behaviour: Behaviour;
  /** Sorted by event; lastMessage is left out where the client sends none. */
  sent: { event: string; failure: boolean; lastMessage?: string }[];
  /** The client's own exit code, where the turn succeeds. */
  exit?: number;
  /** Driven through tmux as a person would, instead of the client's one-shot mode. */
  interactive?: boolean;
  /** install --approve: `hook-notify approve` asks the phone (a local ntfy), which answers so. */
  approve?: Decision;
}

const PHONE_TOKEN = "tk_realclientphone0123456789";
const PHONE_TOPIC = "phone-requests";

// The user config with a phone: an ntfy sink on the local stand-in, approveWhen "always". The
// phone carries the question only (its events are ones the turn never sends).
async function addPhone(box: Box, phone: FakeNtfy): Promise<void> {
  const config = join(box.home, ".config", "hook-notify", "config.json");
  const current = JSON.parse(readFileSync(config, "utf8")) as { sinks: Record<string, unknown> };
  const sink = {
    type: "chat",
    service: "ntfy",
    url: `${phone.url}/${PHONE_TOPIC}`,
    token: PHONE_TOKEN,
    events: ["StopFailure"],
  };
  const value = {
    ...current,
    sinks: { ...current.sinks, phone: sink },
    approveWhen: "always",
    approveSeconds: 60,
  };
  await writeFile(config, JSON.stringify(value));
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

async function expectTurn(box: Box, webhook: TestHttpServer, model: MockModel, turn: Turn) {
  expect(model.requests.length).toBeGreaterThan(0);
  await delivered(webhook, turn.sent.length);
  // Every hook run has handed its notifications to the outbox by now (the client has exited):
  // once the worker is done, what arrived is all there is (no "done" after a failure).
  await workerDone(box);
  const seen = (await delivered(webhook, turn.sent.length))
    .map((d) => ({ event: d.event, failure: d.failure, lastMessage: d.lastMessage }))
    .sort((a, b) => a.event.localeCompare(b.event));
  expect(seen).toEqual(turn.sent);
  const runs = traced(box);
  expect(runs.length).toBeGreaterThanOrEqual(turn.sent.length);
  expect(runs.map((r) => r.code)).toEqual(runs.map(() => 0));
  // Only approve prints, and only the decision a person made: one run, that decision's JSON.
  const printed = runs.filter((r) => r.stdoutBytes > 0).map((r) => r.stdoutBytes);
  const answer = turn.approve && Buffer.byteLength(`${decisionJson(turn.approve)}\n`);
  expect(printed).toEqual(answer === undefined ? [] : [answer]);
}

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
      const phone = turn.approve ? await startFakeNtfy({ token: PHONE_TOKEN }) : undefined;
      if (phone !== undefined) await addPhone(box, phone);
      await install(box, id, phone !== undefined);
      const result = await RUNNERS[id]({ box, bin, model, turn, webhook, phone });
      if (turn.exit !== undefined) {
        expect(result.stdout).toContain(ANSWER);
        expect(result.code).toBe(turn.exit);
      }
      await expectTurn(box, webhook, model, turn);
    },
    CLIENT_TIMEOUT,
  );
});

/** What a runner gets: the sandbox, the client's binary, the mock model, the turn, the webhook. */
interface Drive {
  box: Box;
  bin: string;
  model: MockModel;
  turn: Turn;
  webhook: TestHttpServer;
  /** The local ntfy the approve turn's phone reads. */
  phone?: FakeNtfy | undefined;
}

type Result = Awaited<ReturnType<typeof run>>;

// Claude Code: ANTHROPIC_BASE_URL on loopback. Print mode for a one-shot turn; the interactive
// turn runs in tmux, past onboarding, API-key approval and the folder trust (hooks wait for it).
async function runClaudeCode(drive: Drive): Promise<Result> {
  const { box, bin, model, turn } = drive;
  const env = {
    ...box.env,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "sk-ant-mock-key-0123456789",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
  if (turn.interactive !== true) {
    return run(bin, ["-p", "say hi"], { env, cwd: box.project, timeoutMs: 180_000 });
  }
  const state = {
    hasCompletedOnboarding: true,
    theme: "dark",
    customApiKeyResponses: { approved: [env.ANTHROPIC_API_KEY.slice(-20)], rejected: [] },
    projects: { [box.project]: { hasTrustDialogAccepted: true } },
  };
  await writeFile(join(box.home, ".claude.json"), JSON.stringify(state));
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

// The permission prompt is answered (Enter: "Yes") once its Notification arrived, and the session
// ends with /exit once every notification but the session end came. The probe file exists only
// where a permission was granted.
async function driveInTmux(
  { box, webhook, turn, phone }: Drive,
  env: Record<string, string>,
  command: string,
  quit = "/exit",
): Promise<Result> {
  const socket = join(box.root, "tmux.sock");
  const tmux = (...args: string[]) =>
    run("tmux", ["-S", socket, "-f", "/dev/null", ...args], { env, timeoutMs: 30_000 });
  onTestFinished(async () => {
    await tmux("kill-server");
  });
  const size = ["-x", "120", "-y", "40"];
  await tmux("new-session", "-d", "-s", "agent", ...size, "-c", box.project, command);
  const beforeExit = turn.sent.length - 1;
  if (phone !== undefined) {
    // approve asks the phone; nothing is typed at the terminal: the phone's answer decides.
    const question = await phone.waitForMessage(PHONE_TOPIC, 1, 120_000);
    expect(question.title).toBe("Codex asks to use Bash");
    expect(question.message).toContain("touch hn-probe.txt");
    expect(await pressButton(question, turn.approve === "deny" ? "Deny" : "Allow")).toBe(200);
    await webhook.waitForRequests(beforeExit, 120_000);
    return quitTmux(tmux, { box, webhook, turn }, quit);
  }
  await webhook.waitForRequests(1, 120_000);
  // The needs-you hook can fire before the dialog takes keys: wait until the screen is still,
  // then answer; an Enter that came too early is sent again (on an idle prompt it does nothing).
  await paneSettled(tmux);
  const answeredBy = Date.now() + 120_000;
  while (webhook.requests.length < beforeExit) {
    await tmux("send-keys", "-t", "agent", "Enter");
    try {
      await webhook.waitForRequests(beforeExit, 15_000);
    } catch (error) {
      if (Date.now() > answeredBy) throw error;
    }
  }
  return quitTmux(tmux, { box, webhook, turn }, quit);
}

// Ends the session (the quit command, then Enter) once the turn is done; the probe file exists
// only where a permission was granted (at the terminal, or Allow on the phone).
async function quitTmux(
  tmux: (...args: string[]) => Promise<{ stdout: string }>,
  { box, webhook, turn }: Pick<Drive, "box" | "webhook" | "turn">,
  quit: string,
): Promise<Result> {
  const screen = await tmux("capture-pane", "-p", "-t", "agent");
  await tmux("send-keys", "-t", "agent", quit);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await tmux("send-keys", "-t", "agent", "Enter");
  await webhook.waitForRequests(turn.sent.length, 120_000);
  const granted = turn.behaviour === "permission" && turn.approve !== "deny";
  expect(existsSync(join(box.project, "hn-probe.txt"))).toBe(granted);
  return { code: 0, stdout: screen.stdout, stderr: "" };
}

// Until the pane shows the same text twice, 500 ms apart (at most 10 s).
async function paneSettled(
  tmux: (...args: string[]) => Promise<{ stdout: string }>,
): Promise<void> {
  const until = Date.now() + 10_000;
  let last = "";
  while (Date.now() < until) {
    const now = (await tmux("capture-pane", "-p", "-t", "agent")).stdout;
    if (now === last && now.trim() !== "") return;
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
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
async function runOpencode({ box, bin, model }: Drive) {
  const config = join(box.home, ".config", "opencode", "opencode.json");
  await mkdir(dirname(config), { recursive: true });
  const provider = {
    npm: "@ai-sdk/openai-compatible",
    name: "Mock",
    options: { baseURL: `${model.url}/v1`, apiKey: "test-key" },
    models: { "mock-model": { name: "Mock model", tool_call: true } },
  };
  await writeFile(
    config,
    JSON.stringify({
      provider: { mock: provider },
      model: "mock/mock-model",
      autoupdate: false,
      share: "disabled",
      permission: { bash: "ask" },
    }),
  );
  const env = {
    ...box.env,
    OPENCODE_DISABLE_MODELS_FETCH: "true",
    OPENCODE_DISABLE_AUTOUPDATE: "true",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "true",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "true",
  };
  return run(bin, ["run", "say hi"], { env, cwd: box.project, timeoutMs: 180_000 });
}

const RUNNERS: Record<Id, (drive: Drive) => Promise<Result>> = {
  "claude-code": runClaudeCode,
  droid: runDroid,
  codex: runCodex,
  gemini: runGemini,
  copilot: runCopilot,
  opencode: runOpencode,
};
