// npm run bench: what hook-notify costs the agent, as ratios against `node -e 0` measured in the
// same run, interleaved so machine noise hits every case alike. Prints a Markdown table for the
// README. Also checks, with real local servers that take 2 s to answer, that hook mode with five
// remote sinks returns at node's speed, that every server gets its notification, that a server
// failing 3 times then recovering gets exactly one logical notification, and that no secret is
// written anywhere. Timings here are information, never a pass/fail test.
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SMTPServer } from "smtp-server";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin", "hook-notify.js");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const RSS_ROUNDS = Number(process.env.BENCH_RSS_ROUNDS ?? 5);
const SERVER_DELAY_MS = 2_000;
const stopEvent = JSON.parse(
  readFileSync(join(root, "test/fixtures/events/claude-code/Stop.json")),
);
// A new session every run: the same event twice would be de-duplicated (the cheap path), and
// every real hook run is a new event.
let sessions = 0;
const freshStop = () =>
  Buffer.from(JSON.stringify({ ...stopEvent, session_id: `bench-${process.pid}-${sessions++}` }));
const gnuTime = ["/usr/bin/time", "/bin/time"].find((p) => existsSync(p));
const scratch = mkdtempSync(join(os.tmpdir(), "hook-notify-bench-"));
const SECRETS = {
  slackToken: "benchSECRETslack0123456789",
  webhookSecret: "",
  smtpPass: "benchSECRETsmtp",
};

process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));

if (!existsSync(join(root, "dist", "cli.cjs"))) {
  console.error("bench: dist/ is missing: run `npm run build` first (npm run bench does).");
  process.exit(1);
}

// ---- local servers that take 2 s to answer ------------------------------------------------------

function startHttp(name, { failFirst = 0, delayMs = SERVER_DELAY_MS, status = 200 } = {}) {
  const received = [];
  let requests = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const failing = ++requests <= failFirst;
      const answer = failing ? 500 : status;
      setTimeout(
        () => {
          received.push({
            at: Date.now(),
            url: req.url,
            id: req.headers["webhook-id"],
            status: answer,
          });
          res.writeHead(answer, { "content-type": "text/plain" });
          res.end(failing ? "temporarily broken" : answer === 200 ? "ok" : "");
        },
        failing ? 0 : delayMs,
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        name,
        url: `http://127.0.0.1:${server.address().port}`,
        received,
        accepted: () => received.filter((r) => r.status < 300),
        close: () => new Promise((done) => server.close(done)),
        server,
      }),
    ),
  );
}

function startSmtp() {
  const received = [];
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    onAuth: (auth, _session, cb) =>
      cb(auth.password === SECRETS.smtpPass ? null : new Error("bad password"), {
        user: auth.username,
      }),
    onData: (stream, _session, cb) => {
      const chunks = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () =>
        setTimeout(() => {
          received.push({
            at: Date.now(),
            status: 250,
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          cb();
        }, SERVER_DELAY_MS),
      );
    },
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        name: "email (SMTP)",
        port: server.server.address().port,
        received,
        accepted: () => received,
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

// ---- environments ---------------------------------------------------------------------------------

// A home with no config: the built-in default (desktop + sound). notify-send and the player are
// stubs on PATH (this machine has no desktop or sound card); hook mode starts them detached anyway.
function desktopHome() {
  const home = join(scratch, "desktop");
  const stubs = join(home, "bin");
  mkdirSync(stubs, { recursive: true });
  for (const name of ["notify-send", "paplay"]) {
    writeFileSync(join(stubs, name), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  }
  return env(home, {
    PATH: `${stubs}:/usr/bin:/bin`,
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/dev/null",
  });
}

function env(home, extra = {}) {
  mkdirSync(join(home, "config"), { recursive: true });
  return {
    HOME: home,
    PATH: process.env.PATH,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_STATE_HOME: join(home, "state"),
    LANG: "C.UTF-8",
    ...extra,
  };
}

function remoteHome(name, sinks, extra = {}) {
  const home = join(scratch, name);
  const e = env(home, extra);
  writeFileSync(join(e.XDG_CONFIG_HOME, "config.json"), JSON.stringify({ sinks }, null, 2));
  return { ...e, HOOK_NOTIFY_CONFIG: join(e.XDG_CONFIG_HOME, "config.json") };
}

// ---- measuring ------------------------------------------------------------------------------------

// Wall time from spawn to the process's exit (not to its pipes closing: a detached worker may
// outlive it, as it should).
function runOnce(args, { env: childEnv, stdin }) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env: childEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("error", reject);
    child.on("exit", (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({ ms, code, stdout, stderr });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(typeof stdin === "function" ? stdin() : (stdin ?? ""));
  });
}

// Peak RSS (KiB) from GNU time, which waits for the measured process only.
function peakRss(args, { env: childEnv, stdin }) {
  if (!gnuTime) return undefined;
  const out = spawnSync(gnuTime, ["-f", "HNRSS %M", process.execPath, ...args], {
    env: childEnv,
    input: typeof stdin === "function" ? stdin() : (stdin ?? ""),
    encoding: "utf8",
  });
  const match = /HNRSS (\d+)/.exec(out.stderr);
  return match ? Number(match[1]) : undefined;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function main() {
  const servers = {
    slack: await startHttp("Slack"),
    discord: await startHttp("Discord", { status: 204 }),
    teams: await startHttp("Teams (Workflows)", { status: 202 }),
    webhook: await startHttp("webhook"),
    smtp: await startSmtp(),
  };
  SECRETS.webhookSecret = `whsec_${Buffer.from("benchSECRETwebhook-signing-key!!").toString("base64")}`;
  const remoteEnv = remoteHome(
    "remote",
    {
      slack: { type: "chat", service: "slack", url: "${BENCH_SLACK_URL}" },
      discord: {
        type: "chat",
        service: "discord",
        url: `${servers.discord.url}/api/webhooks/1/discordtoken`,
      },
      teams: {
        type: "chat",
        service: "teams",
        url: `${servers.teams.url}/workflows/1/triggers/manual`,
      },
      webhook: {
        type: "webhook",
        url: `${servers.webhook.url}/hooks/agent`,
        secret: "${BENCH_WEBHOOK_SECRET}",
      },
      mail: {
        type: "email",
        smtp: {
          host: "127.0.0.1",
          port: servers.smtp.port,
          user: "bench",
          pass: "${BENCH_SMTP_PASS}",
        },
        from: "hook-notify <bench@localhost>",
        to: ["you@localhost"],
      },
    },
    {
      BENCH_SLACK_URL: `${servers.slack.url}/services/TBENCH/BBENCH/${SECRETS.slackToken}`,
      BENCH_WEBHOOK_SECRET: SECRETS.webhookSecret,
      BENCH_SMTP_PASS: SECRETS.smtpPass,
    },
  );
  const desktopEnv = desktopHome();
  // The floor for hook mode with desktop + sound: any node program that reads the event and starts
  // the two programs detached, with no parsing, config or log to speak of.
  const floor = join(scratch, "floor.cjs");
  writeFileSync(
    floor,
    `let s = "";
process.stdin.setEncoding("utf8").on("data", (c) => (s += c)).on("end", () => {
  JSON.parse(s);
  const { spawn } = require("node:child_process");
  for (const p of ["notify-send", "paplay"]) spawn(p, [], { detached: true, stdio: "ignore" }).unref();
});
`,
  );
  const hook = [bin, "--client", "claude-code"];
  const cases = [
    { name: "`node -e 0`", args: ["-e", "0"], env: desktopEnv },
    {
      name: "reference: 6 lines of JS that read stdin and start 2 programs detached",
      args: [floor],
      env: desktopEnv,
      stdin: freshStop,
    },
    {
      name: "`--dry-run`, Stop fixture",
      args: [bin, "--dry-run"],
      env: desktopEnv,
      stdin: freshStop,
    },
    {
      name: "hook mode, desktop + sound (no config)",
      args: hook,
      env: desktopEnv,
      stdin: freshStop,
    },
    {
      name: "hook mode, Slack + Discord + Teams + e-mail + webhook, servers answer in 2 s",
      args: hook,
      env: remoteEnv,
      stdin: freshStop,
      remote: true,
    },
  ];
  const targets = [undefined, undefined, 1.15, 1.2, 1.2];

  console.error(
    `bench: ${ROUNDS} interleaved rounds of ${cases.length} cases, after 2 warm-up rounds…`,
  );
  for (let round = -2; round < ROUNDS; round++) {
    for (const c of cases) {
      const r = await runOnce(c.args, c);
      if (r.code !== 0 || (c.args.includes("--dry-run") ? false : r.stdout !== "")) {
        console.error(
          `bench: ${c.name} exited ${r.code}; stdout ${JSON.stringify(r.stdout.slice(0, 200))}; stderr ${r.stderr.slice(0, 300)}`,
        );
        process.exit(1);
      }
      if (round >= 0) (c.walls ??= []).push(r.ms);
      if (c.remote) c.runs = (c.runs ?? 0) + 1;
    }
  }
  for (let round = 0; round < RSS_ROUNDS; round++) {
    for (const c of cases) {
      const kib = peakRss(c.args, c);
      if (kib !== undefined) (c.rss ??= []).push(kib);
      if (c.remote) c.runs += 1;
    }
  }

  const base = cases[0];
  const baseWall = median(base.walls);
  const baseRss = base.rss ? median(base.rss) : undefined;
  const rows = cases.map((c, i) => {
    const wall = median(c.walls);
    const rss = c.rss ? median(c.rss) : undefined;
    const wallRatio = wall / baseWall;
    const rssRatio = rss && baseRss ? rss / baseRss : undefined;
    const target = targets[i] ? `≤ ${targets[i]}x / ≤ 1.3x` : "—";
    return `| ${c.name} | ${wall.toFixed(1)} | ${i ? `${wallRatio.toFixed(2)}x` : "1.00x"} | ${rss ? (rss / 1024).toFixed(1) : "n/a"} | ${rssRatio ? `${rssRatio.toFixed(2)}x` : i ? "n/a" : "1.00x"} | ${target} |`;
  });

  // ---- every server gets every notification --------------------------------------------------
  const remote = cases.find((c) => c.remote);
  const expected = remote.runs; // every run, warm-up and peak-RSS rounds included
  const waitStarted = Date.now();
  const all = Object.values(servers);
  while (all.some((s) => s.accepted().length < expected) && Date.now() - waitStarted < 180_000) {
    await new Promise((r) => setTimeout(r, 250));
  }
  const deliveredIn = ((Date.now() - waitStarted) / 1000).toFixed(1);

  // ---- a server that fails 3 times, then recovers ------------------------------------------------
  const flaky = await startHttp("flaky webhook", { failFirst: 3, delayMs: 0 });
  const flakyEnv = remoteHome("flaky", { hook: { type: "webhook", url: `${flaky.url}/in` } });
  await runOnce(hook, { env: flakyEnv, stdin: freshStop });
  const flakyStarted = Date.now();
  while (flaky.accepted().length < 1 && Date.now() - flakyStarted < 120_000) {
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 1_000)); // a duplicate would arrive now
  const flakyIds = new Set(flaky.received.map((r) => r.id));

  // ---- no secret anywhere on disk or in printed output ----------------------------------------------
  const dry = await runOnce([bin, "--dry-run"], { env: remoteEnv, stdin: freshStop });
  const secretValues = [SECRETS.slackToken, SECRETS.smtpPass, SECRETS.webhookSecret.slice(6)];
  const leaks = [];
  for (const file of walk(scratch)) {
    if (file.includes(`${join("remote", "config")}`)) continue; // the user's own config file
    const text = readFileSync(file, "latin1");
    for (const s of secretValues) if (text.includes(s)) leaks.push(file.slice(scratch.length));
  }
  for (const s of secretValues)
    if (dry.stdout.includes(s) || dry.stderr.includes(s)) leaks.push("--dry-run output");

  const cpu = os.cpus()[0]?.model.replace(/\s+/g, " ").trim() ?? "unknown CPU";
  console.log(
    `Machine: ${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}; median of ${ROUNDS} interleaved runs (peak RSS: median of ${RSS_ROUNDS}${gnuTime ? ", GNU time" : ", not measured: no GNU time"}).`,
  );
  console.log("");
  console.log("| case | wall ms | vs node | peak RSS MiB | vs node | target (wall / RSS) |");
  console.log("| --- | ---: | ---: | ---: | ---: | --- |");
  for (const row of rows) console.log(row);
  console.log("");
  console.log(
    `Remote delivery: ${all.map((s) => `${s.name} ${s.accepted().length}/${expected}`).join(", ")}; all in within ${deliveredIn} s after the last hook returned (servers answer in 2 s, the worker delivers 4 at a time).`,
  );
  console.log(
    `Failing server: ${flaky.received.length} requests (${flaky.received.filter((r) => r.status >= 500).length} answered 500), ${flaky.accepted().length} accepted, ${flakyIds.size} distinct webhook-id (${[...flakyIds].join(", ")}), recovered after ${((Date.now() - flakyStarted) / 1000 - 1).toFixed(1)} s.`,
  );
  console.log(
    `Secrets (Slack token, SMTP password, webhook signing key) in logs, outbox files and dry-run output: ${leaks.length ? `FOUND in ${[...new Set(leaks)].join(", ")}` : "none"}.`,
  );

  for (const s of [...all, flaky]) await s.close();
  if (
    leaks.length ||
    all.some((s) => s.accepted().length < expected) ||
    flaky.accepted().length !== 1 ||
    flakyIds.size !== 1
  )
    process.exitCode = 1;
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) yield* walk(path);
    else if (st.isFile()) yield path;
  }
}

await main();
