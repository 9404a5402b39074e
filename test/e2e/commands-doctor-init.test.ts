import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { startHttpServer } from "../helpers/http-server.js";
import { BIN, ROOT, tempHome, type BinResult, type TempHome } from "../helpers/run-bin.js";
import { startSmtpServer } from "../helpers/smtp-server.js";

// eslint-disable-next-line no-control-regex -- looking for the escapes a styled output writes
const ANSI = /\u001b\[/;

interface Row {
  check: string;
  status: "ok" | "warn" | "fail";
  detail: string;
  fix: string;
}

// The built binary with a working directory of our choosing (doctor reads the project's files).
function runIn(cwd: string, args: string[], env: TempHome["env"]): Promise<BinResult> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
  child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
  });
}

// A temp HOME whose project folder is home/project, so no file of this repository is read.
function sandbox(extraEnv: Record<string, string | undefined> = {}) {
  const home = tempHome(extraEnv);
  const project = join(home.dir, "project");
  mkdirSync(project);
  const write = (path: string, value: unknown) => {
    const file = join(home.dir, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  };
  const run = (args: string[], env: Record<string, string | undefined> = {}) =>
    runIn(project, args, { ...home.env, ...env });
  const doctorJson = async (env: Record<string, string | undefined> = {}) => {
    const result = await run(["doctor", "--json"], env);
    return { result, rows: JSON.parse(result.stdout) as Row[] };
  };
  return { home, project, write, run, doctorJson };
}

const hasPython = spawnSync("python3", ["--version"]).status === 0;

// Runs the binary on a pseudo-terminal (python's pty), as a person would see it.
function runOnTty(args: string[], env: Record<string, string | undefined>, cwd: string): string {
  const script = [
    "import os,pty,sys",
    "pid,fd=pty.fork()",
    "if pid==0: os.execv(sys.argv[1],sys.argv[1:])",
    "out=b''",
    "while True:",
    " try: chunk=os.read(fd,4096)",
    " except OSError: break",
    " if not chunk: break",
    " out+=chunk",
    "os.waitpid(pid,0)",
    "sys.stdout.write(out.decode())",
  ].join("\n");
  const result = spawnSync("python3", ["-c", script, process.execPath, BIN, ...args], {
    cwd,
    env: env,
    encoding: "utf8",
    timeout: 20_000,
  });
  return result.stdout;
}

const ourEntry = (timeout?: number) => ({
  hooks: [
    {
      type: "command",
      command: '"/usr/bin/node" "/opt/hook-notify/bin/hook-notify.js" --client claude-code',
      ...(timeout === undefined ? {} : { timeout }),
    },
  ],
});

// An e-mail sink at the local SMTP server, its password from $SMTP_PASS.
function mailSink(port: number) {
  return {
    type: "email",
    smtp: { host: "127.0.0.1", port, user: "bot", pass: "${SMTP_PASS}" },
    from: "bot@example.com",
    to: ["me@example.com"],
  };
}

describe("hook-notify doctor", () => {
  it("exits 1 on a broken config and names the place in the fix line", async () => {
    const box = sandbox();
    const file = box.home.writeConfig({
      sinks: { team: { type: "chat", service: "slack", url: "not a url" } },
    });
    const result = await box.run(["doctor"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `${file}:6:7: sinks.team.url: expected https://hooks.slack.com/services/… or slack://TOKEN_A/TOKEN_B/TOKEN_C`,
    );
    expect(result.stdout).toContain(`fix: Fix sinks.team.url in ${file}`);
  });

  it("exits 1 on a config that is not JSON, pointing at the line", async () => {
    const box = sandbox();
    const file = box.home.writeConfig('{\n  "sinks": {,\n}');
    const { result, rows } = await box.doctorJson();
    expect(result.code).toBe(1);
    const config = rows.find((r) => r.check === "config");
    expect(config?.status).toBe("fail");
    expect(config?.fix).toContain(file);
    expect(config?.detail).toMatch(/line 2 column/);
  });

  it.runIf(process.platform === "linux")(
    "fails the desktop check, naming the fix, when no notification service answers on the bus",
    async () => {
      const bin = fakeBin([], { real: { node: process.execPath } });
      const box = sandbox({ PATH: bin.dir, DBUS_SESSION_BUS_ADDRESS: "unix:path=/dev/null" });
      const result = await box.run(["doctor"]);
      expect(result.stdout).toMatch(
        /^failed desktop \(desktop\): no notification service answers on the session bus \(.+\)$/m,
      );
      expect(result.stdout).toContain("fix: Run where a desktop session is");
      const { rows } = await box.doctorJson();
      const desktop = rows.find((r) => r.check.startsWith("desktop"));
      expect(desktop?.status).toBe("fail");
      expect(desktop?.fix).toContain("notification daemon");
      // Neither desktop nor sound can deliver: nothing would reach the person.
      expect(rows.find((r) => r.check === "sinks")).toMatchObject({ status: "fail" });
      expect(result.code).toBe(1);
    },
  );

  it("passes SMTP (verify: login, no mail) and a reachable chat host; secrets stay out", async () => {
    const smtp = await startSmtpServer({ auth: { user: "bot", pass: "s3cret-pass-canary" } });
    const http = await startHttpServer();
    const box = sandbox({
      SMTP_PASS: "s3cret-pass-canary",
      NTFY_URL: `${http.url}/topic-canary-123456`,
    });
    box.home.writeConfig({
      sinks: {
        mail: mailSink(smtp.port),
        phone: { type: "chat", service: "ntfy", url: "${NTFY_URL}" },
      },
    });
    const result = await box.run(["doctor"]);
    expect(result.stdout).toMatch(/^ok email \(mail\): SMTP 127\.0\.0\.1:\d+ answered/m);
    expect(result.stdout).toMatch(
      /^reachable only ntfy \(phone\): http:\/\/127\.0\.0\.1:\d+\/…: /m,
    );
    expect(result.stdout).toContain("ok sinks: 2 of 2 can deliver: mail, phone");
    expect(result.stdout).not.toContain("s3cret-pass-canary");
    expect(result.stdout).not.toContain("topic-canary-123456");
    expect(smtp.messages).toHaveLength(0);
    // ntfy without a token: its health answers; nothing is published.
    expect(http.requests.map(({ method, url }) => `${method} ${url}`)).toEqual(["GET /v1/health"]);
    expect(result.code).toBe(0);
  });

  it("checks the proxy instead of the host when HTTPS_PROXY applies, sending no request", async () => {
    const proxy = await startHttpServer();
    const box = sandbox({ HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` });
    box.home.writeConfig({
      sinks: { team: { type: "chat", service: "slack", url: "https://hooks.invalid/T/B/x" } },
    });
    const { result, rows } = await box.doctorJson();
    const team = rows.find((r) => r.check === "slack (team)");
    expect(team?.status).toBe("reachable");
    expect(team?.detail).toContain(`via proxy 127.0.0.1:${proxy.port}`);
    expect(proxy.requests).toHaveLength(0);
    expect(result.code).toBe(0);
  });

  it("in a container without a display and only desktop and sound: exit 1, nothing can deliver", async () => {
    const box = sandbox({ container: "docker", HOOK_NOTIFY_LOCAL_SINKS: "0" });
    const { result, rows } = await box.doctorJson();
    expect(rows.find((r) => r.check === "container")).toMatchObject({ status: "warn" });
    expect(rows.find((r) => r.check === "sinks")).toMatchObject({
      status: "fail",
      detail: "no sink can deliver (desktop, sound skipped here: see above)",
    });
    expect(result.code).toBe(1);
  });

  it("warns over SSH that desktop and sound are skipped there", async () => {
    const box = sandbox({
      SSH_CONNECTION: "10.0.0.2 50000 10.0.0.1 22",
      HOOK_NOTIFY_LOCAL_SINKS: "0",
    });
    const { rows } = await box.doctorJson();
    expect(rows.find((r) => r.check === "ssh")?.status).toBe("warn");
  });

  it("fails SMTP on a wrong password without printing it", async () => {
    const smtp = await startSmtpServer({ auth: { user: "bot", pass: "right" } });
    const box = sandbox({ SMTP_PASS: "wrong-pass-canary" });
    box.home.writeConfig({
      sinks: {
        mail: mailSink(smtp.port),
      },
    });
    const { result, rows } = await box.doctorJson();
    expect(rows.find((r) => r.check === "email (mail)")).toMatchObject({ status: "fail" });
    expect(result.stdout).not.toContain("wrong-pass-canary");
    expect(result.code).toBe(1);
  });

  it("finds Claude Code's user and project entries, their timeouts and the double run", async () => {
    const box = sandbox();
    box.write(".claude/settings.json", {
      hooks: { Stop: [ourEntry(10)], SessionEnd: [ourEntry()] },
    });
    box.write("project/.claude/settings.json", { hooks: { Stop: [ourEntry(10)] } });
    const { rows } = await box.doctorJson();
    expect(rows).toContainEqual(
      expect.objectContaining({
        check: "Claude Code (user)",
        status: "ok",
        detail: "~/.claude/settings.json: Stop 10 s, SessionEnd (no timeout)",
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({
        check: "Claude Code (user)",
        status: "warn",
        fix: "hook-notify install --client claude-code --scope user",
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ check: "Claude Code (project)", status: "ok" }),
    );
    expect(rows.filter((r) => r.check === "duplicates").length).toBeGreaterThan(0);
  });

  it("exits 1 on a Claude Code settings file with comments", async () => {
    const box = sandbox();
    box.write(".claude/settings.json", '{\n  // mine\n  "hooks": {}\n}\n');
    const { result, rows } = await box.doctorJson();
    const row = rows.find((r) => r.check === "Claude Code (user)");
    expect(row?.status).toBe("fail");
    expect(row?.detail).toContain("a comment at line 2");
    expect(result.code).toBe(1);
  });

  it("counts the outbox backlog and suggests flush", async () => {
    const box = sandbox();
    box.write("state/hook-notify/outbox/pending/a.json", "{}");
    box.write("state/hook-notify/outbox/failed/b.json", "{}");
    const { rows } = await box.doctorJson();
    const outbox = rows.find((r) => r.check === "outbox");
    expect(outbox?.status).toBe("warn");
    expect(outbox?.detail).toMatch(/^1 pending, 1 failed, oldest \d+ s old/);
    expect(outbox?.fix).toBe("hook-notify flush --retry-failed");
  });

  it.runIf(hasPython)("colours a terminal, and writes no escapes with NO_COLOR", () => {
    const box = sandbox();
    const env = { ...box.home.env, TERM: "xterm" };
    expect(runOnTty(["doctor"], env, box.project)).toMatch(ANSI);
    const plain = runOnTty(["doctor"], { ...env, NO_COLOR: "1" }, box.project);
    expect(plain).toContain("log:");
    expect(plain).not.toMatch(ANSI);
  });
});

describe("hook-notify init", () => {
  const secrets = {
    SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T0/B0/slack-canary",
    SMTP_PASS: "smtp-pass-canary",
  };

  it("writes a starter with $schema and ${VAR} references, never a secret value", async () => {
    const box = sandbox(secrets);
    const result = await box.run(["init", "--sinks", "desktop,sound,slack,email"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("export SLACK_WEBHOOK_URL=");
    // No hook-notify on this PATH: the next steps name the checkout's own script.
    expect(result.stdout).toContain(`node ${BIN} test`);
    const file = join(box.home.dir, "config", "hook-notify", "config.json");
    const text = readFileSync(file, "utf8");
    const json = JSON.parse(text) as { $schema: string; sinks: Record<string, unknown> };
    // The schema's copy beside the file: editors validate offline, a node switch breaks nothing.
    expect(json.$schema).toBe("./config.schema.json");
    const copy = join(dirname(file), "config.schema.json");
    const shipped = readFileSync(join(ROOT, "schema", "config.schema.json"), "utf8");
    expect(readFileSync(copy, "utf8")).toBe(shipped);
    expect(text).toContain("${SLACK_WEBHOOK_URL}");
    expect(text).toContain("${SMTP_PASS}");
    expect(text).not.toContain("slack-canary");
    expect(text).not.toContain("smtp-pass-canary");
    expect(Object.keys(json.sinks)).toEqual(["desktop", "sound", "slack", "email"]);
    expect(validateConfig(json, secrets).issues).toEqual([]);
    expect(statSync(file).mode & 0o777, "the config is private").toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777, "and so is its folder").toBe(0o700);
    // install brings an old copy up to this version.
    writeFileSync(copy, "{}");
    mkdirSync(join(box.home.dir, ".factory"), { recursive: true });
    expect((await box.run(["install", "--client", "droid", "--yes"])).code).toBe(0);
    expect(readFileSync(copy, "utf8")).toBe(shipped);
  });

  it("refuses to overwrite without --force, with one line, and replaces with it", async () => {
    const box = sandbox();
    const file = join(box.project, "hn.json");
    expect((await box.run(["init", "--sinks", "ntfy", "--path", file])).code).toBe(0);
    const before = readFileSync(file, "utf8");
    const again = await box.run(["init", "--sinks", "desktop", "--path", file]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stderr).toContain("--force");
    expect(readFileSync(file, "utf8")).toBe(before);
    const forced = await box.run(["init", "--sinks", "desktop", "--path", file, "--force"]);
    expect(forced.code).toBe(0);
    expect(readFileSync(file, "utf8")).toContain('"desktop"');
  });

  it("every sink choice validates once its variables are set", async () => {
    const box = sandbox();
    const all = "desktop,sound,slack,discord,teams,googlechat,mattermost,ntfy,email,webhook";
    const file = join(box.project, "all.json");
    expect((await box.run(["init", "--sinks", all, "--path", file])).code).toBe(0);
    const env = {
      SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T/B/x",
      DISCORD_WEBHOOK_URL: "https://discord.com/api/webhooks/1/x",
      TEAMS_WEBHOOK_URL: "https://example.webhook.office.com/x",
      GOOGLE_CHAT_WEBHOOK_URL: "https://chat.googleapis.com/v1/spaces/x",
      MATTERMOST_WEBHOOK_URL: "https://mm.example.com/hooks/x",
      NTFY_URL: "https://ntfy.sh/topic",
      SMTP_PASS: "x",
      HOOK_NOTIFY_WEBHOOK_URL: "https://ci.example.com/hook",
      HOOK_NOTIFY_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString("base64")}`,
    };
    const json: unknown = JSON.parse(readFileSync(file, "utf8"));
    expect(validateConfig(json, env).issues).toEqual([]);
  });

  it("rejects an unknown sink name without writing", async () => {
    const box = sandbox();
    const file = join(box.project, "x.json");
    const result = await box.run(["init", "--sinks", "desktop,pager", "--path", file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pager");
    expect(existsSync(file)).toBe(false);
  });

  it("prints no escapes with NO_COLOR", async () => {
    const box = sandbox({ NO_COLOR: "1" });
    const result = await box.run(["init", "--sinks", "desktop"]);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(ANSI);
  });

  it.runIf(hasPython)("asks on a terminal without --sinks", () => {
    const box = sandbox();
    const file = join(box.project, "asked.json");
    const script = [
      "import os,pty,sys,time",
      "pid,fd=pty.fork()",
      "if pid==0: os.execv(sys.argv[1],sys.argv[1:])",
      "out=b''",
      "def until(s):",
      " global out",
      " while s not in out: out+=os.read(fd,1024)",
      // desktop and sound start checked: keep desktop, uncheck sound, check slack (a multi-select).
      "until(b'Which sinks'); os.write(fd,b'\\x1b[B \\x1b[B\\x1b[B\\x1b[B \\r')",
      "until(b'Slack webhook'); os.write(fd,b'MY_SLACK\\r')",
      "until(b'Send a test notification now?'); os.write(fd,b'n\\r')",
      "sys.stdout.write(out.decode())",
    ].join("\n");
    const result = spawnSync(
      "python3",
      ["-c", script, process.execPath, BIN, "init", "--path", file],
      { env: box.home.env, encoding: "utf8", timeout: 20_000 },
    );
    expect(result.stdout).toContain("export MY_SLACK=");
    expect(readFileSync(file, "utf8")).toContain("${MY_SLACK}");
  });
});
