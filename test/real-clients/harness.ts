// The sandbox, process and tmux helpers the real-client tests share (more-clients.test.ts): a
// fresh HOME with hook-notify behind a tracer, install, delivered notifications, tmux driving.
// The same helpers as real-clients.test.ts, which keeps its own copies while it is reworked.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, onTestFinished } from "vitest";
import type { PermissionDecision } from "../../src/approve/answer.js";
import { decisionJson } from "../../src/approve/decision.js";
import { questionAnswerJson, readQuestion } from "../../src/approve/question.js";
import type { TestHttpServer } from "../helpers/http-server.js";
import { pressButton, type FakeNtfy } from "../helpers/ntfy-server.js";
import { BIN, removeHome } from "../helpers/run-bin.js";
import type { FakeTelegram } from "../helpers/telegram-server.js";
import { LABELS } from "../../src/approve/request.js";
import {
  PERMISSION_COMMAND,
  QUESTION_INPUT,
  SESSION_COMMAND,
  type Behaviour,
  type MockModel,
} from "./mock-model.js";

/** A client as pinned.json names it. */
export interface Pinned {
  package: string;
  version: string;
  bin: string;
}

/** The client versions the real-client tests and .ci/run use: the ones the adapters were verified
 * against, unless HOOK_NOTIFY_CLIENT_VERSIONS (`npm run test:clients -- --latest`) names others by
 * id ({"claude-code": "2.1.332"}: those clients at those versions, the others as pinned). */
export function pinnedClients<Id extends string>(): Record<Id, Pinned> {
  const list = JSON.parse(readFileSync(join(import.meta.dirname, "pinned.json"), "utf8")) as Record<
    Id,
    Pinned
  >;
  const versions = process.env["HOOK_NOTIFY_CLIENT_VERSIONS"];
  if (versions === undefined || versions === "") return list;
  const wanted = JSON.parse(versions) as Partial<Record<Id, string>>;
  const entries = Object.entries<Pinned>(list).map(([id, c]) => [
    id,
    { ...c, version: wanted[id as Id] ?? c.version },
  ]);
  return Object.fromEntries(entries) as Record<Id, Pinned>;
}

export interface Box {
  root: string;
  home: string;
  project: string;
  env: Record<string, string>;
  trace: string;
}

// A fresh HOME, a git project whose path has a space, and hook-notify behind a tracer that
// records each run's exit code and stdout size (the project wrapper runs $HOOK_NOTIFY_BIN).
export async function makeBox(webhook: TestHttpServer): Promise<Box> {
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
    "AgentNotify",
  ];
  const sink = { type: "webhook", url: `${webhook.url}/agent`, events };
  await writeFile(config, JSON.stringify({ sinks: { hook: sink } }));
  return { root, home, project, env, trace };
}

export function shq(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

// stdin is closed (Codex exec reads a piped stdin as more prompt); output is collected.
export function run(
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
export async function workerDone(box: Box): Promise<void> {
  const lock = join(box.home, ".local", "state", "hook-notify", "outbox", "worker.lock");
  for (let i = 0; i < 300 && existsSync(lock); i++) await new Promise((r) => setTimeout(r, 100));
}

export async function install(
  box: Box,
  client: string,
  approve = false,
  more: readonly string[] = [],
): Promise<void> {
  const args = ["install", "--client", client, "--scope", "project", "--project-dir", box.project];
  if (approve) args.push("--approve");
  args.push(...more);
  const result = await run(process.execPath, [BIN, ...args, "--yes"], { env: box.env });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
}

interface Sent {
  data: { event: string; client: string; lastMessage?: string; failure: boolean };
}

// The notifications the turn produced, once every hook run so far has been delivered.
export async function delivered(webhook: TestHttpServer, count: number): Promise<Sent["data"][]> {
  await webhook.waitForRequests(count, 60_000);
  return webhook.requests.map((r) => (JSON.parse(r.body) as Sent).data);
}

export function traced(box: Box): { code: number; stdoutBytes: number }[] {
  if (!existsSync(box.trace)) return [];
  return readFileSync(box.trace, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { code: number; stdoutBytes: number });
}

/** One turn a client is driven through, and the notifications it must produce. */
export interface Turn {
  what: string;
  behaviour: Behaviour;
  /** Sorted by event; lastMessage is left out where the client sends none. */
  sent: { event: string; failure: boolean; lastMessage?: string }[];
  /** The client's own exit code, where the turn succeeds. */
  exit?: number;
  /** Driven through tmux as a person would, instead of the client's one-shot mode. */
  interactive?: boolean;
  /** install --approve: `hook-notify approve` asks the phone (a local ntfy), which answers so. */
  approve?: PermissionDecision;
  /** The phone is a local Bot API instead, and the person replies this to deny with a reason. */
  reason?: string;
  /** install --approve; the agent asks a question and the phone (a local ntfy) presses this option. */
  answer?: string;
}

/** Claude Code's environment for a turn against the mock model on loopback. */
export function claudeEnv(box: Box, model: MockModel): Record<string, string> {
  return {
    ...box.env,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: CLAUDE_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
}

const CLAUDE_API_KEY = "sk-ant-mock-key-0123456789";

/** Claude Code's print mode with MCP servers: it starts the turn before they connect, and defers
 * their tools behind a tool search the mock model does not do: wait for them, list their tools. */
export const CLAUDE_MCP_ENV = { MCP_CONNECTION_NONBLOCKING: "false", ENABLE_TOOL_SEARCH: "false" };

// An interactive Claude Code starts past onboarding, the API key's approval and the project's
// trust (hooks wait for it): its state in ~/.claude.json.
export async function skipClaudeWelcome(box: Box): Promise<void> {
  const state = {
    hasCompletedOnboarding: true,
    theme: "dark",
    customApiKeyResponses: { approved: [CLAUDE_API_KEY.slice(-20)], rejected: [] },
    projects: { [box.project]: { hasTrustDialogAccepted: true } },
  };
  await writeFile(join(box.home, ".claude.json"), JSON.stringify(state));
}

export const PHONE_TOKEN = "tk_realclientphone0123456789";
export const PHONE_TOPIC = "phone-requests";

// The user config with a phone: an ntfy sink on the local stand-in, approveWhen "always". The
// phone carries the question only (its events are ones the turn never sends).
export async function addPhone(box: Box, phone: FakeNtfy): Promise<void> {
  await addPhoneSink(box, {
    service: "ntfy",
    url: `${phone.url}/${PHONE_TOPIC}`,
    token: PHONE_TOKEN,
  });
}

export const PHONE_BOT_TOKEN = "123456789:AArealclientphonebot0123456789";
export const PHONE_CHAT = 515151;

// The same, with a Telegram bot (the local Bot API) as the phone.
export async function addTelegramPhone(box: Box, bot: FakeTelegram): Promise<void> {
  await addPhoneSink(box, {
    service: "telegram",
    botToken: PHONE_BOT_TOKEN,
    chatId: PHONE_CHAT,
    apiUrl: bot.url,
  });
}

async function addPhoneSink(box: Box, service: Record<string, unknown>): Promise<void> {
  const config = join(box.home, ".config", "hook-notify", "config.json");
  const current = JSON.parse(readFileSync(config, "utf8")) as { sinks: Record<string, unknown> };
  const phone = { type: "chat", ...service, events: ["StopFailure"] };
  const value = {
    ...current,
    sinks: { ...current.sinks, phone },
    approveWhen: "always",
    approveSeconds: 60,
  };
  await writeFile(config, JSON.stringify(value));
}

export async function expectTurn(box: Box, webhook: TestHttpServer, model: MockModel, turn: Turn) {
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
  // Only approve prints, and only the decision a person made: one run, that decision's JSON
  // (for Allow for this session, with the rules the client suggested; for a question, the input
  // with the option chosen).
  const printed = runs.filter((r) => r.stdoutBytes > 0).map((r) => r.stdoutBytes);
  if (turn.approve === "allow-session") {
    expect(printed).toHaveLength(1);
    return;
  }
  const decision =
    turn.answer === undefined
      ? turn.approve && decisionJson({ decision: turn.approve, reason: turn.reason })
      : questionAnswerJson(QUESTION_INPUT, readQuestion(QUESTION_INPUT), turn.answer);
  const answer = decision && Buffer.byteLength(`${decision}\n`);
  expect(printed).toEqual(answer === undefined ? [] : [answer]);
}

/** What a runner gets: the sandbox, the client's binary, the mock model, the turn, the webhook. */
export interface Drive {
  box: Box;
  bin: string;
  model: MockModel;
  turn: Turn;
  webhook: TestHttpServer;
  /** The local ntfy the approve turn's phone reads. */
  phone?: FakeNtfy | undefined;
  /** Or the local Bot API, for a turn whose person replies a reason. */
  bot?: FakeTelegram | undefined;
}

export type Result = Awaited<ReturnType<typeof run>>;

// The permission prompt is answered (Enter: "Yes") once its Notification arrived, and the session
// ends with /exit once the turn is done.
export async function driveInTmux(
  { box, webhook, turn, phone, bot }: Drive,
  env: Record<string, string>,
  command: string,
  quit = "/exit",
): Promise<Result> {
  const tmux = await startTmux(box, env, command);
  const beforeExit = turn.sent.length - 1;
  if (bot !== undefined) {
    // The person replies to the question on Telegram: a deny with that reason.
    const question = await bot.waitForMessage(1, 120_000);
    expect(question.text).toContain(PERMISSION_COMMAND);
    bot.reply(question, turn.reason ?? "");
    await webhook.waitForRequests(beforeExit, 120_000);
    return quitTmux(tmux, { box, webhook, turn }, quit);
  }
  if (phone !== undefined) {
    // approve asks the phone; nothing is typed at the terminal: the phone's answer decides.
    const question = await phone.waitForMessage(PHONE_TOPIC, 1, 120_000);
    if (turn.answer === undefined) {
      expect(question.title).toMatch(/ asks to use Bash$/);
      const command = turn.behaviour === "session" ? SESSION_COMMAND : PERMISSION_COMMAND;
      expect(question.message).toContain(command);
    } else expect(question.title).toBe("Claude Code asks you a question");
    const button = turn.answer ?? LABELS[turn.approve ?? "allow"];
    expect(await pressButton(question, button)).toBe(200);
    await webhook.waitForRequests(beforeExit, 120_000);
    // A needs-you here means the terminal asked after all (nothing is typed to answer it).
    const events = webhook.requests.map((r) => (JSON.parse(r.body) as Sent).data.event);
    expect(events).not.toContain("Notification");
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

/** Runs tmux on the box's own server. */
export type Tmux = (...args: string[]) => Promise<Awaited<ReturnType<typeof run>>>;

// `command` in a 120x40 tmux session "agent" in the project, on a server of the box's own that
// the test's end takes down.
export async function startTmux(
  box: Box,
  env: Record<string, string>,
  command: string,
): Promise<Tmux> {
  const socket = join(box.root, "tmux.sock");
  const tmux: Tmux = (...args) =>
    run("tmux", ["-S", socket, "-f", "/dev/null", ...args], { env, timeoutMs: 30_000 });
  onTestFinished(async () => {
    await tmux("kill-server");
  });
  const size = ["-x", "120", "-y", "40"];
  await tmux("new-session", "-d", "-s", "agent", ...size, "-c", box.project, command);
  return tmux;
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
  const asks = turn.behaviour === "permission" || turn.behaviour === "session";
  const granted = asks && turn.approve !== "deny";
  expect(existsSync(join(box.project, "hn-probe.txt"))).toBe(granted);
  return { code: 0, stdout: screen.stdout, stderr: "" };
}

// Until the pane shows the same text twice, 500 ms apart (at most 10 s).
export async function paneSettled(
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

// OpenCode and its fork Kilo: an OpenAI-compatible provider on loopback in the client's global
// config (`<config folder>/<name>.json`), shell commands need permission, and the models fetch,
// autoupdate, default plugins and LSP downloads are off (offline), by the client's own prefix.
export async function runOpencodeFamily(
  { box, bin, model }: Drive,
  client: { folder: string; file: string; envPrefix: string },
): Promise<Result> {
  const config = join(box.home, ".config", client.folder, client.file);
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
  const env = { ...box.env };
  for (const what of ["MODELS_FETCH", "AUTOUPDATE", "DEFAULT_PLUGINS", "LSP_DOWNLOAD"])
    env[`${client.envPrefix}_DISABLE_${what}`] = "true";
  return run(bin, ["run", "say hi"], { env, cwd: box.project, timeoutMs: 180_000 });
}
