// The secrets sweep: one temp HOME whose config holds canary secrets (webhook URL tokens, an ntfy
// token, Apprise URLs with Telegram, Gotify, Matrix and Pushover tokens, a signing secret, an
// Authorization header, URL userinfo, SMTP credentials), every command of the BUILT binary run
// against local servers that succeed and fail in every way, then every byte the processes printed
// and every file under HOME searched for the canaries in every encoding an accident could produce.
// Also: the files hook-notify creates are 0600 in 0700 folders.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { dirname, join, relative } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  findCanaries,
  makeCanary,
  needlesFor,
  prefixNeedles,
  type CanaryHit,
  type CanaryNeedle,
} from "../helpers/canary.js";
import { startHttpServer } from "../helpers/http-server.js";
import { BIN, FIXTURES, tempHome, type BinResult, type TempHome } from "../helpers/run-bin.js";
import { startSmtpServer } from "../helpers/smtp-server.js";

const base64 = (text: string): string => Buffer.from(text).toString("base64");

// Every canary of the run, by what it stands for. Two need percent- and JSON-escaping to survive.
function makeSecrets() {
  return {
    slackToken: makeCanary("slacktoken"),
    discordToken: makeCanary("discordtoken"),
    teamsSig: makeCanary("teamssig"),
    ntfyToken: makeCanary("ntfytoken"),
    mattermostToken: makeCanary("mattermosttoken"),
    googleKey: makeCanary("googlekey"),
    googleToken: makeCanary("googletoken"),
    signingKey: makeCanary("signingkey"),
    bearer: makeCanary("bearer"),
    urlUser: makeCanary("urluser"),
    urlPass: `${makeCanary("urlpass")}!@:/`,
    hangToken: makeCanary("hangtoken"),
    refusedToken: makeCanary("refusedtoken"),
    smtpUser: makeCanary("smtpuser"),
    smtpPass: `${makeCanary("smtppass")}"/+ =`,
    deadSmtpPass: makeCanary("deadsmtppass"),
    spacedToken: makeCanary("spacedtoken"),
    wrongTypeToken: makeCanary("wrongtype"),
    unsetNeighbour: makeCanary("unsetneighbour"),
    typoPass: makeCanary("typopass"),
    badSecret: makeCanary("badsecret"),
    initSlack: makeCanary("initslack"),
    initSmtp: makeCanary("initsmtp"),
    initSigningKey: makeCanary("initsigningkey"),
    initWebhookToken: makeCanary("initwebhooktoken"),
    claudeEnv: makeCanary("claudeenv"),
    // Apprise forms: a bot token with a ":" (WHATWG cannot parse it), keys in the user and host.
    telegramToken: `123456789:${makeCanary("telegramtoken")}`,
    gotifyToken: makeCanary("gotifytoken"),
    pushoverUser: makeCanary("pushoveruser")
      .replace(/[^A-Za-z0-9]/g, "")
      .padEnd(30, "u")
      .slice(0, 30),
    matrixToken: `syt_${makeCanary("matrixtoken")}`,
    pushoverApp: makeCanary("pushoverapp")
      .replace(/[^A-Za-z0-9]/g, "")
      .padEnd(30, "a")
      .slice(0, 30),
  };
}
type Secrets = ReturnType<typeof makeSecrets>;

// `whsec_` + base64 of the canary's bytes: valid for Standard Webhooks (24-64 bytes).
const whsec = (canary: string): string => `whsec_${base64(canary)}`;

// Every needle: each secret in each encoding, the basic-auth pairs, and the bare prefix.
function allNeedles(s: Secrets): CanaryNeedle[] {
  const pairs = [
    [s.urlUser, s.urlPass],
    [s.smtpUser, s.smtpPass],
  ].map(([user = "", pass = ""]) => ({
    secret: `${user}:${pass}`,
    encoding: "base64 (basic auth)",
    text: base64(`${user}:${pass}`),
  }));
  return [
    ...Object.values(s).flatMap(needlesFor),
    ...[s.signingKey, s.initSigningKey].flatMap((key) => needlesFor(whsec(key))),
    ...pairs,
    ...prefixNeedles(),
  ];
}

// A TCP port nobody listens on (bound, then closed).
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The local servers, scripted so that across the run each kind of failure happens.
async function startServers(s: Secrets) {
  const unauthorized = `unauthorized: token Bearer ${s.ntfyToken} is not valid`; // an echoing server
  return {
    slack: await startHttpServer([{ status: 200, body: "ok" }]),
    discord: await startHttpServer([
      { status: 404, body: `{"message":"Unknown Webhook ${s.discordToken}","code":10015}` },
    ]),
    teams: await startHttpServer([
      { status: 429, headers: { "retry-after": "1" }, body: "slow down" },
      { status: 200, body: "" },
    ]),
    google: await startHttpServer([
      { status: 500, body: `backend error for key=${s.googleKey}` },
      { status: 200, body: "{}" },
    ]),
    mattermost: await startHttpServer([{ reset: true }]),
    ntfy: await startHttpServer([{ status: 401, body: unauthorized }]),
    webhook: await startHttpServer([
      { status: 403, body: `forbidden: Authorization: Bearer ${s.bearer}` },
      { status: 200, body: "ok" },
    ]),
    basic: await startHttpServer([{ status: 200, body: "ok" }]),
    telegram: await startHttpServer([
      { status: 401, body: '{"ok":false,"error_code":401,"description":"Unauthorized"}' },
    ]),
    gotify: await startHttpServer([{ status: 200, body: '{"id":1}' }]),
    matrix: await startHttpServer([
      { status: 401, body: '{"errcode":"M_UNKNOWN_TOKEN","error":"Invalid access token passed."}' },
      { status: 200, body: '{"event_id":"$e:example.org"}' },
    ]),
    pushover: await startHttpServer([
      {
        status: 400,
        body: `{"status":0,"errors":["application token is invalid: ${s.pushoverApp}"]}`,
      },
    ]),
    // Never answers: the sink's 1 s timeout must end each attempt (src/abort.ts keeps that timer
    // alive; AbortSignal.timeout() inside AbortSignal.any() can be collected on Node 20).
    slow: await startHttpServer([{ hang: true }]),
    smtp: await startSmtpServer({
      auth: { user: s.smtpUser, pass: s.smtpPass },
      rejectAuthTimes: 1,
      echoUser: true, // "535 … for <user>": the reply quotes a secret
    }),
    refused: await closedPort(),
  };
}
type Servers = Awaited<ReturnType<typeof startServers>>;

// Some secrets through ${VAR} (in `env`), the rest written literally in the file.
function mainConfig(s: Secrets, sv: Servers) {
  const remote = { timeoutSeconds: 2 };
  const userinfo = `${encodeURIComponent(s.urlUser)}:${encodeURIComponent(s.urlPass)}`;
  return {
    env: {
      HN_SLACK_URL: `${sv.slack.url}/services/T0AAAA/B0BBBB/${s.slackToken}`,
      HN_TEAMS_URL: `${sv.teams.url}/workflows/1/triggers/manual/paths/invoke?api-version=1&sig=${s.teamsSig}`,
      HN_WEBHOOK_SECRET: whsec(s.signingKey),
      HN_SMTP_PASS: s.smtpPass,
    },
    config: {
      sinks: {
        slack: { type: "chat", service: "slack", url: "${HN_SLACK_URL}", ...remote },
        discord: {
          type: "chat",
          service: "discord",
          url: `${sv.discord.url}/api/webhooks/1234567890/${s.discordToken}`,
          ...remote,
        },
        teams: { type: "chat", service: "teams", url: "${HN_TEAMS_URL}", ...remote },
        google: {
          type: "chat",
          service: "googlechat",
          url: `${sv.google.url}/v1/spaces/AAAA/messages?key=${s.googleKey}&token=${s.googleToken}`,
          ...remote,
        },
        mattermost: {
          type: "chat",
          service: "mattermost",
          url: `${sv.mattermost.url}/hooks/${s.mattermostToken}`,
          ...remote,
        },
        ntfy: {
          type: "chat",
          service: "ntfy",
          url: `${sv.ntfy.url}/agent-alerts`,
          token: s.ntfyToken,
          ...remote,
        },
        telegram: {
          type: "chat",
          service: "telegram",
          url: `tgram://${s.telegramToken}/-100123:4`,
          apiUrl: sv.telegram.url,
          ...remote,
        },
        gotify: {
          type: "chat",
          service: "gotify",
          url: `gotify://127.0.0.1:${sv.gotify.port}/${s.gotifyToken}`,
          ...remote,
        },
        matrix: {
          type: "chat",
          service: "matrix",
          url: `matrix://${s.matrixToken}@127.0.0.1:${sv.matrix.port}/!room:example.org`,
          ...remote,
        },
        pushover: {
          type: "chat",
          service: "pushover",
          url: `pover://${s.pushoverUser}@${s.pushoverApp}`,
          apiUrl: sv.pushover.url,
          ...remote,
        },
        webhook: {
          type: "webhook",
          url: `${sv.webhook.url}/in`,
          headers: { Authorization: `Bearer ${s.bearer}` },
          secret: "${HN_WEBHOOK_SECRET}",
          ...remote,
        },
        basic: {
          type: "webhook",
          url: `http://${userinfo}@127.0.0.1:${sv.basic.port}/in`,
          ...remote,
        },
        slow: { type: "webhook", url: `${sv.slow.url}/slow/${s.hangToken}`, timeoutSeconds: 1 },
        gone: { type: "webhook", url: `http://127.0.0.1:${sv.refused}/x/${s.refusedToken}` },
        mail: {
          type: "email",
          smtp: {
            host: "127.0.0.1",
            port: sv.smtp.port,
            user: s.smtpUser,
            pass: "${HN_SMTP_PASS}",
          },
          from: "hook-notify <agent@example.test>",
          to: ["me@example.test"],
          ...remote,
        },
        deadmail: {
          type: "email",
          smtp: { host: "127.0.0.1", port: sv.refused, user: s.smtpUser, pass: s.deadSmtpPass },
          from: "hook-notify <agent@example.test>",
          to: ["me@example.test"],
          ...remote,
        },
      },
    },
  };
}

// Broken entries whose invalid values hold canaries, next to one valid sink.
function brokenConfig(s: Secrets, sv: Servers) {
  return {
    sinks: {
      slack: { type: "chat", service: "slack", url: "${HN_SLACK_URL}", timeoutSeconds: 2 },
      spaced: {
        type: "chat",
        service: "slack",
        url: `${sv.slack.url}/services/T0/B0/ ${s.spacedToken}`,
      },
      wrongtype: {
        type: "webhook",
        url: `${sv.webhook.url}/in`,
        headers: `Bearer ${s.wrongTypeToken}`,
      },
      unset: {
        type: "webhook",
        url: `${sv.webhook.url}/in/${s.unsetNeighbour}?t=\${HN_NEVER_SET_VARIABLE}`,
      },
      typo: {
        type: "email",
        smtp: { host: "127.0.0.1", port: sv.smtp.port, user: s.smtpUser, pasword: s.typoPass },
        from: "a@example.test",
        to: ["b@example.test"],
      },
      badsecret: { type: "webhook", url: `${sv.webhook.url}/in`, secret: `whsec_${s.badSecret}!` },
    },
  };
}

/** One process's output, kept for the scan. */
interface Captured {
  where: string;
  text: string;
}

type Run = (
  label: string,
  args: string[],
  options?: { input?: string; env?: Record<string, string | undefined> },
) => Promise<BinResult>;

// Runs the built binary with a umask of 022 (so a missing `mode` shows), collecting its output.
function runner(
  cwd: string,
  baseEnv: Record<string, string | undefined>,
  captured: Captured[],
): Run {
  return (label, args, options = {}) => {
    const started = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...baseEnv, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    return new Promise((resolve) => {
      child.on("close", (code, signal) => {
        clearTimeout(killer);
        captured.push({ where: `${label}: stdout`, text: stdout });
        captured.push({ where: `${label}: stderr`, text: stderr });
        resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
      });
    });
  };
}

// Every file under a folder, recursively, with its stat.
// A worker stopped by SIGKILL leaves its wake socket behind: it is walked (its mode counts) but
// not read, as a socket holds no bytes.
function walk(root: string): { path: string; mode: number; isDir: boolean; isFile: boolean }[] {
  const names = readdirSync(root, { recursive: true }) as string[];
  return [root, ...names.map((name) => join(root, name))].map((path) => {
    const info = statSync(path);
    return {
      path,
      mode: info.mode & 0o777,
      isDir: info.isDirectory(),
      isFile: info.isFile(),
    };
  });
}

// Ends the detached worker our hook runs started (its pid is in the lock), so flush can run:
// SIGTERM, then SIGKILL if it has not ended within 3 s (the lock of a dead pid is taken over).
// A worker just spawned takes a moment to lock: wait up to `appearMs` for the lock file.
async function stopWorker(lockFile: string, appearMs = 0): Promise<void> {
  await waitUntil(() => existsSync(lockFile), appearMs);
  let pid: number;
  try {
    pid = (JSON.parse(readFileSync(lockFile, "utf8")) as { pid: number }).pid;
  } catch {
    return; // no worker holds the lock
  }
  const isAlive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    if (!isAlive()) return;
    process.kill(pid, signal);
    await waitUntil(() => !isAlive(), 3_000);
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end;) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

const EVENTS = [
  "claude-code/Stop.json",
  "claude-code/Notification.json",
  "claude-code/SubagentStop.json",
  "claude-code/SessionEnd-other.json",
  "droid-documented/Notification-permission.json",
  "droid/SessionEnd-other.json",
];
// A fixture payload; `fresh` gives it a new session so de-duplication does not hold it back.
function event(name: string, fresh = false): string {
  const payload = JSON.parse(readFileSync(join(FIXTURES, name), "utf8")) as Record<string, unknown>;
  return JSON.stringify(fresh ? { ...payload, session_id: randomUUID() } : payload);
}

/** What every step of the sweep shares: the canaries, the servers, the HOME and the runner. */
interface Sweep {
  s: Secrets;
  sv: Servers;
  home: TempHome;
  run: Run;
  captured: Captured[];
  /** Files we wrote (they hold secrets on purpose): left out of the scan. */
  inputs: { config: string; broken: string; claudeSettings: string };
  stateDir: string;
  lockFile: string;
  initFile: string;
}

// One HOME: the main config, a broken one, a Claude Code settings file with a secret in "env".
async function setUpSweep(): Promise<Sweep> {
  const s = makeSecrets();
  const sv = await startServers(s);
  const { env, config } = mainConfig(s, sv);
  const home = tempHome(env);
  const write = (path: string, value: unknown): string => {
    const file = join(home.dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(value, null, 2));
    return file;
  };
  const inputs = {
    config: write("config/hook-notify/config.json", config),
    broken: write("broken/config.json", brokenConfig(s, sv)),
    claudeSettings: write(".claude/settings.json", { env: { API_KEY: s.claudeEnv } }),
  };
  mkdirSync(join(home.dir, ".factory"));
  mkdirSync(join(home.dir, "project"));
  const stateDir = join(home.dir, "state", "hook-notify");
  const lockFile = join(stateDir, "outbox", "worker.lock");
  onTestFinished(() => stopWorker(lockFile));
  const captured: Captured[] = [];
  const run = runner(join(home.dir, "project"), home.env, captured);
  const initFile = join(home.dir, "init-config", "hook-notify", "config.json");
  return { s, sv, home, run, captured, inputs, stateDir, lockFile, initFile };
}

// Hook mode on several events: the outbox fills, the worker delivers, retries and gives up.
async function runHooks({ sv, run, lockFile }: Sweep): Promise<void> {
  for (const name of EVENTS) {
    const result = await run(`hook ${name}`, [], { input: event(name) });
    expect(result).toMatchObject({ code: 0, stdout: "" });
  }
  // Requests each server needs: teams answers 429 then 200, google 500 then 200.
  const wanted = [
    ["slack", sv.slack, 1],
    ["telegram", sv.telegram, 1],
    ["gotify", sv.gotify, 1],
    ["matrix", sv.matrix, 1],
    ["pushover", sv.pushover, 1],
    ["teams", sv.teams, 2],
    ["slow", sv.slow, 1],
    ["google", sv.google, 2],
  ] as const;
  const delivered = await waitUntil(
    () =>
      wanted.every(([, server, count]) => server.requests.length >= count) &&
      sv.smtp.messages.length > 0,
    60_000, // returns as soon as they arrived; a busy machine may need the minute
  );
  const seen = wanted.map(([name, server]) => `${name} ${server.requests.length}`).join(", ");
  expect(delivered, `requests: ${seen}, mails ${sv.smtp.messages.length}`).toBe(true);
  await stopWorker(lockFile);
  await run("--dry-run", ["--dry-run"], { input: event("claude-code/Stop.json", true) });
  await run("--wait", ["--wait"], { input: event("claude-code/Notification.json", true) });
  await run("debug hook", [], {
    input: event("droid-documented/Stop.json", true),
    env: { HOOK_NOTIFY_DEBUG: "1" },
  });
  await stopWorker(lockFile, 1_500);
}

// The commands for people, on the main config (flush after the worker is stopped).
async function runCommands({ run, lockFile }: Sweep): Promise<void> {
  await run("test", ["test"]);
  await run("test --json", ["test", "--json", "--event", "SessionEnd", "--failure"]);
  await run("doctor", ["doctor"]);
  await run("doctor --json", ["doctor", "--json"]);
  await run("log", ["log"]);
  await run("log --failed", ["log", "--failed"]);
  await run("log --json", ["log", "--json"]);
  await stopWorker(lockFile);
  await run("flush", ["flush"]);
  await run("flush --retry-failed", ["flush", "--retry-failed"]);
}

// The broken config: invalid values, a wrong type, an unset ${VAR} beside a literal secret.
async function runBroken({ run, inputs, lockFile }: Sweep): Promise<void> {
  const env = { HOOK_NOTIFY_CONFIG: inputs.broken };
  const input = (): string => event("claude-code/Stop.json", true);
  await run("broken: hook", [], { input: input(), env });
  await run("broken: --dry-run", ["--dry-run"], { input: input(), env });
  await run("broken: --wait", ["--wait"], { input: input(), env });
  for (const json of [[], ["--json"]]) {
    await run(`broken: test ${json.join("")}`, ["test", ...json, "--config", inputs.broken]);
    await run(`broken: doctor ${json.join("")}`, ["doctor", ...json, "--config", inputs.broken]);
  }
  await stopWorker(lockFile, 1_500);
  await run("log after broken", ["log", "--json"]);
}

// init unattended with the secrets in the environment, then `test` on the file it wrote.
async function runInit({ s, sv, home, run }: Sweep): Promise<void> {
  const env = {
    XDG_CONFIG_HOME: join(home.dir, "init-config"),
    SLACK_WEBHOOK_URL: `${sv.slack.url}/services/T1/B1/${s.initSlack}`,
    SMTP_PASS: s.initSmtp,
    HOOK_NOTIFY_WEBHOOK_URL: `${sv.basic.url}/hook?token=${s.initWebhookToken}`,
    HOOK_NOTIFY_WEBHOOK_SECRET: whsec(s.initSigningKey),
  };
  const init = await run("init", ["init", "--sinks", "slack,email,webhook"], { env });
  expect(init.code).toBe(0);
  for (const sink of ["slack", "webhook"]) {
    await run(`init's config: test --sink ${sink}`, ["test", "--sink", sink], { env });
  }
}

// install and uninstall print diffs of a settings file that holds a secret of its own.
async function runInstall({ run }: Sweep): Promise<void> {
  await run("install --dry-run", ["install", "--dry-run"]);
  await run("install", ["install", "--yes"]);
  await run("install again", ["install", "--yes"]);
  await run("uninstall --dry-run", ["uninstall", "--dry-run"]);
  await run("uninstall", ["uninstall", "--yes"]);
}

// Every captured output and every file under HOME but our inputs, against every needle.
function scan(sweep: Sweep) {
  const { config, broken, claudeSettings } = sweep.inputs;
  const inputs = new Set([config, broken, claudeSettings, `${claudeSettings}.bak`]);
  const files = walk(sweep.home.dir).filter((f) => f.isFile && !inputs.has(f.path));
  const blobs: Captured[] = [
    ...sweep.captured,
    ...files.map((f) => ({
      where: relative(sweep.home.dir, f.path),
      text: readFileSync(f.path).toString("latin1"),
    })),
  ];
  const needles = allNeedles(sweep.s);
  const hits = blobs.flatMap((b) => findCanaries(b.where, b.text, needles));
  const bytes = blobs.reduce((sum, b) => sum + Buffer.byteLength(b.text, "latin1"), 0);
  return { files, needles, hits, bytes };
}

function describeHit(hit: CanaryHit): string {
  return `${hit.where}: ${hit.count}× ${hit.encoding} of ${hit.secret} …${JSON.stringify(hit.context)}…`;
}

// Files hook-notify created (its state folder, init's config) that are not 0600 / 0700.
function wrongModes(sweep: Sweep): string[] {
  return [...walk(sweep.stateDir), ...walk(dirname(sweep.initFile))]
    .filter((f) => f.mode !== (f.isDir ? 0o700 : 0o600))
    .map((f) => `${relative(sweep.home.dir, f.path)}: ${f.mode.toString(8)}`);
}

describe("secrets sweep", () => {
  it(
    "finds no canary in any output or file, in any encoding; state is 0600 in 0700",
    {
      timeout: 300_000, // about 35 s alone; CI also runs it beside two CPU-burning processes
    },
    async () => {
      const started = performance.now();
      const previousUmask = process.umask(0o022); // children inherit it: a missing `mode` shows
      onTestFinished(() => {
        process.umask(previousUmask);
      });
      const sweep = await setUpSweep();
      await runHooks(sweep);
      await runCommands(sweep);
      await runBroken(sweep);
      await runInit(sweep);
      await runInstall(sweep);
      await stopWorker(sweep.lockFile);

      const { files, needles, hits, bytes } = scan(sweep);
      const ms = Math.round(performance.now() - started);
      console.info(
        `secrets sweep: ${sweep.captured.length / 2} processes, ${files.length} files, ` +
          `${bytes} bytes, ${needles.length} needles, ${hits.length} hits, ${ms} ms`,
      );
      expect(files.some((f) => f.path.endsWith("log.ndjson"))).toBe(true);
      const count = hits.reduce((sum, h) => sum + h.count, 0);
      expect(count, `canary secrets found:\n${hits.map(describeHit).join("\n")}`).toBe(0);
      expect(wrongModes(sweep), "files must be 0600 and folders 0700").toEqual([]);
    },
  );
});
