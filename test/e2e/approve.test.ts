// `hook-notify approve` run as Claude Code runs it (the built binary, the PermissionRequest fixture
// on stdin, --timeout from the entry) against a local ntfy whose "phone" presses the buttons by
// doing exactly the HTTP request each action describes.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { pressButton, startFakeNtfy, type FakeNtfy } from "../helpers/ntfy-server.js";

const TOKEN = "tk_approvetesttoken0123456789";
const REPLY = "hn-reply-0123456789abcdefghijklmn";
const REQUESTS = "phone-requests";
const KEY = "a".repeat(64);

// The documented PermissionRequest output (hooks reference, "PermissionRequest decision control"),
// strictly: nothing we did not mean to send.
const decisionShape = z.strictObject({
  hookSpecificOutput: z.strictObject({
    hookEventName: z.literal("PermissionRequest"),
    decision: z.union([
      z.strictObject({ behavior: z.literal("allow") }),
      z.strictObject({ behavior: z.literal("deny"), message: z.string().min(1) }),
    ]),
  }),
});

function setUp(ntfy: FakeNtfy, config: Record<string, unknown> = {}): TempHome {
  const home = tempHome();
  home.writeConfig({
    sinks: {
      phone: { type: "chat", service: "ntfy", url: `${ntfy.url}/${REQUESTS}`, token: TOKEN },
    },
    approveReplyTopic: REPLY,
    approveWhen: "always",
    approveSeconds: 10,
    ...config,
  });
  const stateDir = join(home.dir, "state", "hook-notify");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, "approve.key"), `${KEY}\n`, { mode: 0o600 });
  chmodSync(join(stateDir, "approve.key"), 0o600);
  return home;
}

function approve(
  home: TempHome,
  input = fixture("claude-code/PermissionRequest.json"),
  timeout = 150,
) {
  return runBin(["approve", "--timeout", String(timeout)], {
    input,
    env: home.env,
    killAfterMs: 40_000,
  });
}

function approvalOf(home: TempHome): Record<string, unknown> {
  const line = home.logLines().find((l) => l.event === "PermissionRequest");
  return (line?.approval ?? {}) as Record<string, unknown>;
}

describe("hook-notify approve (built binary, local ntfy)", () => {
  it("Allow on the phone: prints the documented allow decision, exit 0, and logs who answered", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const running = approve(home);
    const request = await ntfy.waitForMessage(REQUESTS);
    expect(await pressButton(request, "Allow")).toBe(200);
    const result = await running;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n',
    );
    expect(decisionShape.safeParse(JSON.parse(result.stdout)).success).toBe(true);
    const approval = approvalOf(home);
    expect(approval).toMatchObject({
      route: "phone",
      result: "allowed",
      answeredBy: "phone",
      tool: "Bash",
    });
    expect(typeof approval.answeredAt).toBe("string");
    // The token went with the publish, the subscription and the button; the log holds no secret.
    const log = JSON.stringify(home.logLines());
    for (const secret of [TOKEN, REPLY, KEY]) expect(log).not.toContain(secret);
    for (const call of ntfy.calls) expect(call.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("Deny on the phone: prints deny with a message for Claude", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const running = approve(home);
    await pressButton(await ntfy.waitForMessage(REQUESTS), "Deny");
    const result = await running;
    expect(result.code).toBe(0);
    const decision = decisionShape.parse(JSON.parse(result.stdout));
    expect(decision.hookSpecificOutput.decision.behavior).toBe("deny");
    expect(approvalOf(home)).toMatchObject({ result: "denied", answeredBy: "phone" });
  });

  it("no answer: prints nothing and exits 0 inside the entry's timeout", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    // --timeout 9 leaves 4 s of waiting (5 s margin), well inside Claude Code's 9 s.
    const result = await approve(home, undefined, 9);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.ms).toBeLessThan(9_000);
    expect(ntfy.messages.filter((m) => m.topic === REQUESTS)).toHaveLength(1);
    expect(approvalOf(home)).toMatchObject({ result: "terminal", fallback: "timeout" });
  });

  it("a forged answer (valid shape, wrong HMAC) is ignored: no decision, the terminal asks", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const running = approve(home, undefined, 10);
    const request = await ntfy.waitForMessage(REQUESTS);
    const allow = request.actions!.find((a) => a.label === "Allow")!;
    const real = JSON.parse(allow.body!) as Record<string, unknown>;
    // Someone who can post to the reply topic but lacks the machine's key.
    const forged = JSON.stringify({ ...real, mac: "A".repeat(43) });
    const posted = await fetch(allow.url, {
      method: "POST",
      headers: allow.headers!,
      body: forged,
    });
    expect(posted.status).toBe(200);
    const denyAsAllow = request.actions!.find((a) => a.label === "Deny")!;
    const swapped = { ...(JSON.parse(denyAsAllow.body!) as object), decision: "allow" };
    await fetch(allow.url, {
      method: "POST",
      headers: allow.headers!,
      body: JSON.stringify(swapped),
    });
    await fetch(allow.url, { method: "POST", headers: allow.headers!, body: "allow" });
    const result = await running;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    const approval = approvalOf(home);
    expect(approval).toMatchObject({ result: "terminal", fallback: "timeout" });
    expect((approval.rejected as { reason: string }[]).map((r) => r.reason)).toEqual([
      "forged",
      "forged",
      "malformed",
    ]);
  });

  it("a replay of an earlier request's Allow is ignored by the next request", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const first = approve(home);
    const earlier = await ntfy.waitForMessage(REQUESTS, 1);
    await pressButton(earlier, "Allow");
    expect(decisionShape.parse(JSON.parse((await first).stdout))).toBeTruthy();
    const second = approve(home, undefined, 10);
    await ntfy.waitForMessage(REQUESTS, 2);
    // The old button, pressed again (or its body re-posted by whoever saw it): a verified answer,
    // but to another request.
    await pressButton(earlier, "Allow");
    const result = await second;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    const lines = home.logLines().filter((l) => l.event === "PermissionRequest");
    const approval = lines[1]!.approval as { rejected: { reason: string }[]; result: string };
    expect(approval.result).toBe("terminal");
    expect(approval.rejected.map((r) => r.reason)).toEqual(["other-request"]);
  });

  it("two requests at once: each takes only the answer to its own request", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const a = approve(home, fixture("claude-code/PermissionRequest.json", { session_id: "aaaa" }));
    const b = approve(
      home,
      fixture("claude-code/PermissionRequest.json", { session_id: "bbbb" }),
      12,
    );
    const second = await ntfy.waitForMessage(REQUESTS, 2);
    const first = await ntfy.waitForMessage(REQUESTS, 1);
    const forA = [first, second].find((m) => m.message.includes("session aaaa"))!;
    await pressButton(forA, "Deny");
    const [resultA, resultB] = await Promise.all([a, b]);
    expect(
      decisionShape.parse(JSON.parse(resultA.stdout)).hookSpecificOutput.decision.behavior,
    ).toBe("deny");
    expect(resultB.stdout).toBe("");
    const rejectedB = home
      .logLines()
      .map((l) => l.approval as { result: string; rejected: { reason: string }[] })
      .find((ap) => ap.result === "terminal")!;
    expect(rejectedB.rejected.map((r) => r.reason)).toEqual(["other-request"]);
  });

  it("a server that closes the stream: gives up after two reconnects, prints nothing", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    ntfy.subscribeMode = "close";
    const home = setUp(ntfy, { approveSeconds: 60 });
    const result = await approve(home, undefined, 90);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    // Well before the 60 s wait: a stream that keeps ending is a broken server, not a slow person.
    expect(result.ms).toBeLessThan(30_000);
    expect(ntfy.calls.filter((c) => c.method === "GET")).toHaveLength(3);
    expect(approvalOf(home)).toMatchObject({ result: "terminal", fallback: "stream-closed" });
  });

  it("a stream that drops once still takes the answer given meanwhile (since= on reconnect)", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy, { approveSeconds: 30 });
    const running = approve(home, undefined, 60);
    const request = await ntfy.waitForMessage(REQUESTS);
    ntfy.dropStreams(REPLY);
    await pressButton(request, "Allow");
    const result = await running;
    expect(result.stdout).toContain('"behavior":"allow"');
    const reconnect = ntfy.calls.filter((c) => c.method === "GET")[1];
    expect(reconnect?.url).toMatch(/\/json\?since=\d+$/);
  });

  it.each(["subscribe", "publish"] as const)(
    "a server whose %s hangs: prints nothing, exit 0, inside the timeout",
    async (what) => {
      const ntfy = await startFakeNtfy({ token: TOKEN });
      if (what === "subscribe") ntfy.subscribeMode = "hang";
      else ntfy.publishMode = "hang";
      const home = setUp(ntfy);
      const result = await approve(home, undefined, 9);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("");
      expect(result.ms).toBeLessThan(9_000);
      expect(home.logLines().at(-1)?.error).toBeTruthy();
    },
  );

  it("hostile tool input reaches the phone as inert, bounded text; nothing runs", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const marker = join(home.dir, "pwned");
    const hiding = `git status${"\u2028".repeat(12)}\u2029\u202e\u2066\u2067\u2068\u2069\u200f`;
    const command = `${hiding}touch ${marker}; echo "$(touch ${marker})" \`touch ${marker}\` | sh\n\nrm -rf ~ # ${"A".repeat(100_000)}`;
    const input = fixture("claude-code/PermissionRequest.json", {
      tool_input: { command, description: "x\u001b[31mred" },
    });
    const running = approve(home, input, 9);
    const request = await ntfy.waitForMessage(REQUESTS);
    const result = await running;
    expect(result.stdout).toBe("");
    expect(existsSync(marker)).toBe(false);
    const publish = ntfy.calls.find((c) => c.method === "POST" && c.url === "/")!;
    expect(publish.headers["content-type"]).toBe("application/json");
    expect(request.message).toContain(`touch ${marker}; echo "$(touch ${marker})"`);
    expect(request.message).toMatch(/\| sh ⏎ +⏎ rm -rf ~ #/);
    expect(request.message).toMatch(
      /\[99,\d{3} more characters not shown: check at the terminal\]/,
    );
    expect(request.message.length).toBeLessThan(1_000);
    expect(request.message).not.toContain("\u001b");
    // Issue 25: none of the separators or bidi controls reach the phone; the whole command is
    // on the message's first line, with its length and a mark for each hidden character.
    expect(request.message).not.toMatch(/[\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
    const first = request.message.split("\n")[0]!;
    expect(first).toMatch(
      /^command \(100,\d{3} characters; 6 hidden characters shown as �\): git status( +⏎){13} ������touch /,
    );
    expect(first).toContain("rm -rf ~ #");
    for (const action of request.actions!) expect(action.body).not.toContain("touch");
  });

  it('approveWhen "away" (the default) with presence unknown: the terminal asks at once', async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy, { approveWhen: undefined });
    const result = await approve(home);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.ms).toBeLessThan(8_000);
    expect(ntfy.calls).toHaveLength(0);
    expect(approvalOf(home)).toMatchObject({ route: "terminal", result: "terminal" });
    expect(String(approvalOf(home).why)).toMatch(/^presence unknown/);
  });

  it.each([
    ["garbage on stdin", "not json"],
    ["another event", fixture("claude-code/Stop.json")],
  ])("%s: prints nothing, exit 0", async (_name, input) => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const result = await approve(home, input);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(ntfy.calls).toHaveLength(0);
  });

  it("a key readable by others is refused: nothing is published, the terminal asks", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    chmodSync(join(home.dir, "state", "hook-notify", "approve.key"), 0o644);
    const result = await approve(home);
    expect(result).toMatchObject({ code: 0, stdout: "" });
    expect(ntfy.calls).toHaveLength(0);
    expect(home.logLines().at(-1)?.error).toMatchObject({ code: "CONFIG_INVALID" });
  });

  // Issue 25: with no token the reply topic takes anyone's post: approve will not listen to it.
  it("a sink without a token: nothing is published, the terminal asks, the log says why", async () => {
    const ntfy = await startFakeNtfy();
    const home = setUp(ntfy);
    home.writeConfig({
      sinks: { phone: { type: "chat", service: "ntfy", url: `${ntfy.url}/${REQUESTS}` } },
      approveReplyTopic: REPLY,
      approveWhen: "always",
    });
    const result = await approve(home);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(ntfy.calls).toHaveLength(0);
    expect(home.logLines().at(-1)?.error).toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(/needs an ntfy access token/) as string,
    });
  });

  it("a token the server refuses: prints nothing, exit 0, the log says why", async () => {
    const ntfy = await startFakeNtfy({ token: "tk_theserverwantsthisone" });
    const home = setUp(ntfy);
    const result = await approve(home);
    expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
    expect(home.logLines().at(-1)?.error).toMatchObject({ code: "SINK_AUTH" });
  });
});
