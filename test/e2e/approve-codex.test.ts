// `hook-notify approve --client codex` run as Codex 0.169.0 runs it (the built binary, Codex's real
// PermissionRequest payload on stdin) against the local ntfy stand-in whose "phone" presses the
// buttons; and `install --approve --client codex` writing Codex's hooks.json.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";
import { pressButton, startFakeNtfy, type FakeNtfy } from "../helpers/ntfy-server.js";

const TOKEN = "tk_codexapprovetoken0123456789";
const REPLY = "hn-reply-codex0123456789abcdefghij";
const REQUESTS = "phone-requests";
const KEY = "b".repeat(64);

// Codex 0.169.0's permission-request.command.output schema (embedded in its binary), strictly:
// additionalProperties false at every level; updatedInput, updatedPermissions and interrupt
// (which make it fail closed) are left out on purpose, so sending one fails this parse.
const codexOutput = z.strictObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  hookSpecificOutput: z.strictObject({
    hookEventName: z.literal("PermissionRequest"),
    decision: z.strictObject({
      behavior: z.enum(["allow", "deny"]),
      message: z.string().optional(),
    }),
  }),
});

function setUp(ntfy: FakeNtfy): TempHome {
  const home = tempHome();
  home.writeConfig({
    sinks: {
      phone: { type: "chat", service: "ntfy", url: `${ntfy.url}/${REQUESTS}`, token: TOKEN },
    },
    approveReplyTopic: REPLY,
    approveWhen: "always",
    approveSeconds: 10,
  });
  const stateDir = join(home.dir, "state", "hook-notify");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, "approve.key"), `${KEY}\n`, { mode: 0o600 });
  chmodSync(join(stateDir, "approve.key"), 0o600);
  return home;
}

function approve(home: TempHome, client: string, timeout = 150) {
  return runBin(["approve", "--client", client, "--timeout", String(timeout)], {
    input: fixture("codex/PermissionRequest.json"),
    env: home.env,
    killAfterMs: 40_000,
  });
}

function lineOf(home: TempHome): Record<string, unknown> {
  return home.logLines().find((l) => l.event === "PermissionRequest") ?? {};
}

describe("hook-notify approve --client codex (built binary, local ntfy)", () => {
  it("Allow: the phone's title names Codex, stdout is an allow Codex's schema accepts", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const running = approve(home, "codex");
    const request = await ntfy.waitForMessage(REQUESTS);
    expect(request.title).toBe("Codex asks to use Bash");
    expect(request.message).toContain("touch hn-probe.txt");
    expect(request.message).toContain("proj");
    expect(await pressButton(request, "Allow")).toBe(200);
    const result = await running;
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const decision = codexOutput.parse(JSON.parse(result.stdout));
    expect(decision.hookSpecificOutput.decision).toEqual({ behavior: "allow" });
    const line = lineOf(home);
    expect(line.client).toBe("codex");
    expect(line.approval).toMatchObject({ route: "phone", result: "allowed", tool: "Bash" });
    expect(JSON.stringify(home.logLines())).not.toContain(TOKEN);
  });

  it("Deny: a deny with the message for the agent, in Codex's schema", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const running = approve(home, "codex");
    await pressButton(await ntfy.waitForMessage(REQUESTS), "Deny");
    const result = await running;
    expect(result.code).toBe(0);
    const decision = codexOutput.parse(JSON.parse(result.stdout)).hookSpecificOutput.decision;
    expect(decision.behavior).toBe("deny");
    expect(decision.message).toMatch(/denied this permission request from their phone/);
    expect(lineOf(home).approval).toMatchObject({ result: "denied", answeredBy: "phone" });
  });

  it("a client approve cannot answer: nothing to the phone, nothing printed, exit 0, logged", async () => {
    const ntfy = await startFakeNtfy({ token: TOKEN });
    const home = setUp(ntfy);
    const result = await approve(home, "gemini", 20);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(ntfy.messages.filter((m) => m.topic === REQUESTS)).toHaveLength(0);
    const line = lineOf(home);
    expect(line.error).toMatchObject({ code: "USAGE" });
    expect((line.error as { message: string }).message).toMatch(
      /approve --client gemini: approve answers the permission requests of claude-code or codex only/,
    );
    expect(line.approval).toMatchObject({ result: "terminal" });
  });
});

describe("install --approve --client codex", () => {
  const NTFY = {
    sinks: {
      phone: { type: "chat", service: "ntfy", url: "https://ntfy.example/req", token: "tk_x1" },
    },
  };
  const hooksOf = (h: TempHome) =>
    JSON.parse(readFileSync(join(h.dir, ".codex", "hooks.json"), "utf8")) as {
      hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]>;
    };

  it("writes one PermissionRequest entry running approve --client codex in place of the notification", async () => {
    const h = tempHome();
    mkdirSync(join(h.dir, ".codex"), { recursive: true });
    const config = h.writeConfig(NTFY);
    const result = await runBin(["install", "--client", "codex", "--approve", "-y"], {
      env: h.env,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { hooks } = hooksOf(h);
    expect(Object.keys(hooks)).toEqual(
      expect.arrayContaining(["PermissionRequest", "Stop", "SubagentStop", "SessionEnd"]),
    );
    // One entry: Codex runs matching hooks at once, so a notification beside it would ask twice.
    const entries = hooks.PermissionRequest!.flatMap((group) => group.hooks);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.command).toMatch(
      /launchers\/codex\/hook-notify\.sh" approve --client codex --timeout 150$/,
    );
    expect(entries[0]!.timeout).toBe(150);
    expect(hooks.Stop![0]!.hooks[0]!.command).toMatch(/--client codex --timeout 10$/);
    const written = JSON.parse(readFileSync(config, "utf8")) as Record<string, unknown>;
    expect(typeof written.approveReplyTopic).toBe("string");
    // Without --approve again: the notification comes back in its place.
    const plain = await runBin(["install", "--client", "codex", "-y"], { env: h.env });
    expect(plain.code).toBe(0);
    const back = hooksOf(h).hooks.PermissionRequest!.flatMap((group) => group.hooks);
    expect(back).toHaveLength(1);
    expect(back[0]!.command).toMatch(/--client codex --timeout 10$/);
    // Uninstall takes everything out.
    await runBin(["install", "--client", "codex", "--approve", "-y"], { env: h.env });
    const removed = await runBin(["uninstall", "--client", "codex", "-y"], { env: h.env });
    expect(removed.code).toBe(0);
    expect(() => hooksOf(h)).toThrow();
  });
});
