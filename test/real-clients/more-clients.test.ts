// The agent clients added after the first six, pinned in pinned.json and driven the same way:
// one turn against the mock model on loopback after `hook-notify install`, the notifications must
// reach a local webhook, and every hook run must exit 0 with nothing on stdout.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { ROOT } from "../helpers/run-bin.js";
import {
  driveInTmux,
  expectTurn,
  install,
  makeBox,
  paneSettled,
  run,
  shq,
  type Drive,
  type Result,
  type Turn,
  pinnedClients,
  runOpencodeFamily,
} from "./harness.js";
import { startMockAugment } from "./mock-augment.js";
import { ANSWER, startMockModel, type Behaviour, type MockModel } from "./mock-model.js";

type Id = "qwen-code" | "kilo" | "auggie" | "pi";
const pinned = pinnedClients<Id>();
const CLIENTS_DIR = process.env["HOOK_NOTIFY_CLIENTS"] ?? join(ROOT, ".cache", "clients");

function clientBin(id: Id): string {
  const { version, bin } = pinned[id];
  return join(CLIENTS_DIR, `${id}-${version}`, "node_modules", ".bin", bin);
}

const TURNS: Record<Id, Turn[]> = {
  // `qwen -p` ends without a SessionEnd and fires no StopFailure; its auth_success Notification
  // (every start) is dropped by the adapter. Interactively, a turn's end is followed by an
  // idle_prompt Notification ("waiting for your input").
  "qwen-code": [
    {
      what: "a print-mode turn: done notified with the last message",
      behaviour: "text",
      sent: [{ event: "Stop", failure: false, lastMessage: ANSWER }],
      exit: 0,
    },
    {
      what: "an interactive turn in tmux whose shell command waits for permission: needs-you, done after it is allowed, session-end on /quit",
      behaviour: "permission",
      interactive: true,
      // The permission prompt, then the idle prompt after the turn.
      sent: [
        { event: "Notification", failure: false },
        { event: "Notification", failure: false },
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
    },
    {
      what: "an interactive turn in tmux the model API refuses: failure notified (StopFailure), no done, session-end on /quit",
      behaviour: "error",
      interactive: true,
      // The idle prompt after the failed turn, the session end, the failure.
      sent: [
        { event: "Notification", failure: false },
        { event: "SessionEnd", failure: false },
        {
          event: "StopFailure",
          failure: true,
          lastMessage: "[API Error: 400 mock: this request is refused]",
        },
      ],
    },
  ],
  // Kilo (an OpenCode fork) runs hook-notify's OpenCode plugin and has no session end. `kilo run`
  // asks for the shell command's permission (needs-you), rejects it itself and then exits 1; a
  // failed model stream is session.error.
  kilo: [
    {
      what: "a turn: done notified with the last message",
      behaviour: "text",
      sent: [{ event: "Stop", failure: false, lastMessage: ANSWER }],
      exit: 0,
    },
    {
      what: "a turn that asks for permission: needs-you and done notified",
      behaviour: "permission",
      sent: [
        { event: "Notification", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
      exit: 1,
    },
    {
      what: "a turn whose model stream fails: failure notified, no done",
      behaviour: "stream-error",
      sent: [{ event: "StopFailure", failure: true }],
    },
  ],
  // Auggie against a stand-in of Augment's API. A refused model call fires no Stop, only a
  // SessionEnd without a reason: nothing says it failed.
  auggie: [
    {
      what: "a print-mode turn: done with the last message, session-end",
      behaviour: "text",
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
      exit: 0,
    },
    {
      what: "a print-mode turn the API refuses: session-end only, no done",
      behaviour: "error",
      sent: [{ event: "SessionEnd", failure: false }],
    },
  ],
  // Pi runs hook-notify's extension: agent_settled (done, or failed when the model call failed)
  // and session_shutdown (quit) at the end of `pi -p`.
  pi: [
    {
      what: "a print-mode turn: done with the last message, session-end",
      behaviour: "text",
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "Stop", failure: false, lastMessage: ANSWER },
      ],
      exit: 0,
    },
    {
      what: "a print-mode turn the model API refuses: failure notified, no done, session-end",
      behaviour: "error",
      sent: [
        { event: "SessionEnd", failure: false },
        { event: "StopFailure", failure: true },
      ],
    },
  ],
};

const CLIENT_TIMEOUT = 240_000;

// The model API each client calls: Auggie talks to Augment's API, the others to a model API.
const MOCKS: Record<Id, (behaviour: Behaviour) => Promise<MockModel>> = {
  "qwen-code": startMockModel,
  kilo: startMockModel,
  auggie: startMockAugment,
  pi: startMockModel,
};

describe.each(Object.keys(TURNS) as Id[])("real %s", (id) => {
  const { package: name, version } = pinned[id];
  const bin = clientBin(id);
  const isInstalled = existsSync(bin);
  const skipped = `is not installed in ${CLIENTS_DIR}, skipped: .ci/run installs it (npm install --prefix ${CLIENTS_DIR}/${id}-${version} ${name}@${version})`;

  if (!isInstalled) process.stderr.write(`real-client test: ${name}@${version} ${skipped}\n`);
  it.skipIf(!isInstalled).each(TURNS[id].map((turn) => [turn.what, turn] as const))(
    `${name}@${version}: install, %s`,
    async (_what, turn) => {
      const webhook = await startHttpServer([{ status: 200 }]);
      const model = await MOCKS[id](turn.behaviour);
      const box = await makeBox(webhook);
      await install(box, id);
      const result = await RUNNERS[id]({ box, bin, model, turn, webhook });
      if (turn.exit !== undefined) {
        expect(result.stdout).toContain(ANSWER);
        expect(result.code).toBe(turn.exit);
      }
      await expectTurn(box, webhook, model, turn);
    },
    CLIENT_TIMEOUT,
  );
});

// Qwen Code: its OpenAI-compatible provider on loopback (Chat Completions), an API key it never
// checks. The folder is trusted by default (folder trust is off), so the project's hooks load.
async function runQwen(drive: Drive): Promise<Result> {
  const { box, bin, model, turn } = drive;
  const settings = join(box.home, ".qwen", "settings.json");
  await mkdir(dirname(settings), { recursive: true });
  await writeFile(settings, JSON.stringify({ security: { auth: { selectedType: "openai" } } }));
  const env = {
    ...box.env,
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: `${model.url}/v1`,
    OPENAI_MODEL: "mock-model",
  };
  if (turn.interactive === true) {
    // Default approval: the shell command asks (Qwen's own default is an LLM classifier).
    const command = `${shq(bin)} --approval-mode default -i 'make the probe file'`;
    const tty = { ...env, TERM: "xterm-256color" };
    if (turn.behaviour === "error") return quitAfterFailure(drive, tty, command, "/quit");
    return driveInTmux(drive, tty, command, "/quit");
  }
  return run(bin, ["-p", "say hi"], { env, cwd: box.project, timeoutMs: 180_000 });
}

// Kilo: OpenCode's runner with Kilo's names: an OpenAI-compatible provider on loopback in its
// global config, shell commands need permission, the models fetch and updates off.
async function runKilo(drive: Drive): Promise<Result> {
  return runOpencodeFamily(drive, { folder: "kilo", file: "kilo.json", envPrefix: "KILO" });
}

// A turn that fails in tmux: once its failure arrived and the screen is still, the session ends.
async function quitAfterFailure(
  { box, webhook, turn }: Drive,
  env: Record<string, string>,
  command: string,
  quit: string,
): Promise<Result> {
  const socket = join(box.root, "tmux.sock");
  const tmux = (...args: string[]) =>
    run("tmux", ["-S", socket, "-f", "/dev/null", ...args], { env, timeoutMs: 30_000 });
  onTestFinished(async () => {
    await tmux("kill-server");
  });
  await tmux(
    "new-session",
    "-d",
    "-s",
    "agent",
    "-x",
    "120",
    "-y",
    "40",
    "-c",
    box.project,
    command,
  );
  await webhook.waitForRequests(1, 120_000);
  await paneSettled(tmux);
  const screen = await tmux("capture-pane", "-p", "-t", "agent");
  await tmux("send-keys", "-t", "agent", quit);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await tmux("send-keys", "-t", "agent", "Enter");
  await webhook.waitForRequests(turn.sent.length, 120_000);
  return { code: 0, stdout: screen.stdout, stderr: "" };
}

// Auggie: logged in through AUGMENT_SESSION_AUTH, whose tenant URL is the mock of Augment's API.
async function runAuggie({ box, bin, model }: Drive): Promise<Result> {
  const session = { accessToken: "test-token", tenantURL: `${model.url}/`, scopes: ["email"] };
  const env = { ...box.env, AUGMENT_SESSION_AUTH: JSON.stringify(session) };
  return run(bin, ["--print", "say hi"], { env, cwd: box.project, timeoutMs: 180_000 });
}

// Pi: an OpenAI-compatible provider on loopback in its models.json; the project is trusted by the
// agent directory's defaultProjectTrust (as a person who trusts it), so .pi/extensions loads.
async function runPi({ box, bin, model }: Drive): Promise<Result> {
  const dir = join(box.home, ".pi", "agent");
  await mkdir(dir, { recursive: true });
  const provider = {
    baseUrl: `${model.url}/v1`,
    api: "openai-completions",
    apiKey: "test-key",
    models: [{ id: "mock-model", name: "Mock model" }],
  };
  await writeFile(join(dir, "models.json"), JSON.stringify({ providers: { mock: provider } }));
  await writeFile(join(dir, "settings.json"), JSON.stringify({ defaultProjectTrust: "always" }));
  const args = ["-p", "say hi", "--provider", "mock", "--model", "mock-model"];
  return run(bin, args, { env: box.env, cwd: box.project, timeoutMs: 180_000 });
}

const RUNNERS: Record<Id, (drive: Drive) => Promise<Result>> = {
  "qwen-code": runQwen,
  kilo: runKilo,
  auggie: runAuggie,
  pi: runPi,
};
