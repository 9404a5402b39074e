// Secrets that come back from outside, on the built binary: an SMTP server that echoes the login in
// its 535 reply, and an agent that prints the webhook URL it was given. Neither the reply nor the
// agent's text may carry a configured secret into a file, an output or a request.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { findCanaries, makeCanary, needlesFor } from "../helpers/canary.js";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { startSmtpServer } from "../helpers/smtp-server.js";

// Every file under HOME except the config we wrote, as text.
function filesOf(home: TempHome, except: string): { where: string; text: string }[] {
  const names = readdirSync(home.dir, { recursive: true }) as string[];
  return names
    .map((name) => join(home.dir, name))
    .filter((path) => path !== except && statSync(path).isFile())
    .map((path) => ({ where: relative(home.dir, path), text: readFileSync(path, "latin1") }));
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  for (const end = Date.now() + timeoutMs; !check() && Date.now() < end;)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

describe("an SMTP server that echoes the login in its 535 reply", () => {
  it("never shows the SMTP user: log, failed entry, --wait, test, doctor (text and JSON)", async () => {
    const user = makeCanary("smtpuser");
    const pass = makeCanary("smtppass");
    const smtp = await startSmtpServer({
      auth: { user, pass },
      rejectAuthTimes: 99,
      echoUser: true,
    });
    const home = tempHome();
    const config = home.writeConfig({
      sinks: {
        mail: {
          type: "email",
          smtp: { host: "127.0.0.1", port: smtp.port, user, pass },
          from: "agent@example.test",
          to: ["me@example.test"],
          timeoutSeconds: 5,
        },
      },
    });
    const outputs: { where: string; text: string }[] = [];
    const run = async (label: string, args: string[], input = "") => {
      const result = await runBin(args, { input, env: home.env, killAfterMs: 30_000 });
      outputs.push({ where: `${label} stdout`, text: result.stdout });
      outputs.push({ where: `${label} stderr`, text: result.stderr });
      return result;
    };
    const stop = (session: string) => fixture("claude-code/Stop.json", { session_id: session });
    await run("hook", ["--timeout", "10"], stop("s-hook"));
    const failed = join(home.dir, "state", "hook-notify", "outbox", "failed");
    await until(() => {
      try {
        return readdirSync(failed).length > 0;
      } catch {
        return false;
      }
    }, 20_000);
    const wait = await run("--wait", ["--wait", "--timeout", "10"], stop("s-wait"));
    await run("test", ["test"]);
    await run("test --json", ["test", "--json"]);
    await run("doctor", ["doctor"]);
    await run("doctor --json", ["doctor", "--json"]);
    await run("log", ["log"]);

    // The server did echo the user (so the test proves something), and the login was refused.
    expect(wait.stdout).toMatch(/✗ mail/);
    expect(readdirSync(failed)).toHaveLength(1);
    const blobs = [...outputs, ...filesOf(home, config)];
    expect(blobs.some((b) => b.where.endsWith("log.ndjson"))).toBe(true);
    const hits = blobs.flatMap((b) =>
      findCanaries(b.where, b.text, [...needlesFor(user), ...needlesFor(pass)]),
    );
    expect(hits.map((h) => `${h.where}: ${h.encoding} ${h.context}`)).toEqual([]);
  }, 90_000);
});

describe("a configured secret in the agent's own text", () => {
  it("is masked before the outbox stores it and before the chat message is posted", async () => {
    const token = makeCanary("slacktoken");
    // 503 with a long Retry-After: the entry stays in the outbox to be looked at.
    const server = await startHttpServer([
      { status: 503, headers: { "retry-after": "120" }, body: "busy" },
    ]);
    const url = `${server.url}/services/T0AAAA/B0BBBB/${token}`;
    const home = tempHome({ HN_SLACK_URL: url });
    const config = home.writeConfig({
      sinks: { slack: { type: "chat", service: "slack", url: "${HN_SLACK_URL}" } },
    });
    const said = [
      `Posted to ${url} as asked.`,
      `The token is ${token}; encoded ${encodeURIComponent(url)}`,
      `and in base64 ${Buffer.from(token).toString("base64")}.`,
    ].join(" ");
    const input = fixture("claude-code/Stop.json", { last_assistant_message: said });
    const dry = await runBin(["--dry-run"], { input, env: home.env });
    const hook = await runBin(["--timeout", "10"], { input, env: home.env });
    expect(hook).toMatchObject({ code: 0, stdout: "" });
    const [posted] = await server.waitForRequests(1, 20_000);
    const pending = join(home.dir, "state", "hook-notify", "outbox", "pending");
    await until(() => readdirSync(pending).length > 0, 5_000);

    expect(posted?.body).toContain("Posted to");
    expect(posted?.body).toContain("***");
    const blobs = [
      { where: "request body", text: posted?.body ?? "" },
      { where: "--dry-run", text: dry.stdout + dry.stderr },
      ...filesOf(home, config),
    ];
    expect(
      blobs.some((b) => b.where.startsWith(join("state", "hook-notify", "outbox", "pending"))),
    ).toBe(true);
    const hits = blobs.flatMap((b) => findCanaries(b.where, b.text, needlesFor(token)));
    expect(hits.map((h) => `${h.where}: ${h.encoding} ${h.context}`)).toEqual([]);
  }, 60_000);
});
