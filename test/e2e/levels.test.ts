// Levels end to end (issues 38 and 43): the built binary with an in-process D-Bus notification
// service that records each Notify and fake players that log how they were started, a webhook "phone" that the escalation would reach. A notice
// ("info") is a quiet banner, a usage limit a banner that says when it resets; neither plays a
// sound or escalates. A prompt a machine wrote (a /loop wakeup) does not answer an escalation.
import { describe, expect, it } from "vitest";
import { fakeBin, type FakeBin } from "../helpers/fake-bin.js";
import { fakeNotificationBus, type FakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { startHttpServer, type TestHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome, type TempHome } from "../helpers/run-bin.js";

// The run lines (one per event), not the banner's receipts, which come with the daemon's reply.
const runLines = (home: { logLines(): Record<string, unknown>[] }) =>
  home.logLines().filter((line) => line.event !== undefined);

const PLAYERS = ["paplay", "pw-play", "aplay", "play", "ffplay", "mpv"] as const;
const WINDOW_SECONDS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup(
  server: TestHttpServer,
): Promise<{ bin: FakeBin; bus: FakeNotificationBus; home: TempHome }> {
  const bin = fakeBin([...PLAYERS]);
  const bus = await fakeNotificationBus();
  const home = tempHome({ ...bin.env, ...bus.env });
  home.writeConfig({
    escalate: {
      afterSeconds: WINDOW_SECONDS,
      to: ["phone"],
      events: ["Notification", "StopFailure"],
    },
    sinks: {
      desktop: { type: "desktop" },
      sound: { type: "sound" },
      phone: { type: "webhook", url: `${server.url}/phone`, events: [] },
    },
  });
  return { bin, bus, home };
}

const run = (home: TempHome, input: string) =>
  runBin(["--wait", "--timeout", "60"], { input, env: home.env, killAfterMs: 120_000 });
const played = (bin: FakeBin) =>
  bin.calls().filter((call) => (PLAYERS as readonly string[]).includes(call.program));

describe.runIf(process.platform === "linux")("levels", () => {
  it("auth_success: an info banner, no sound, no escalation", async () => {
    const server = await startHttpServer();
    const { bin, bus, home } = await setup(server);
    const input = JSON.stringify({
      hook_event_name: "Notification",
      notification_type: "auth_success",
      message: "Claude Code login successful",
      session_id: "levels-info",
      cwd: home.dir,
    });
    expect(await run(home, input)).toMatchObject({ code: 0 });
    const [banner, ...more] = bus.calls();
    expect(more).toEqual([]);
    expect(banner).toMatchObject({ urgency: 0, icon: "dialog-information" });
    expect(banner?.summary).toMatch(/· Claude Code login successful$/);
    expect(played(bin)).toEqual([]);
    const [line] = runLines(home);
    expect(line?.escalations).toBeUndefined();
    expect(line?.skipped).toEqual(
      expect.arrayContaining([
        { sink: "sound", reason: expect.stringMatching(/^a notice plays no sound/) as unknown },
      ]),
    );
    await sleep(WINDOW_SECONDS * 1000 + 2000);
    expect(server.requests.filter((r) => r.url === "/phone")).toEqual([]);
  }, 150_000);

  it("a StopFailure with a rate limit: one limit banner naming when it resets, no sound, no escalation; the next one of the window is held back", async () => {
    const server = await startHttpServer();
    const { bin, bus, home } = await setup(server);
    // Claude Code's wording, with the reset in UTC one hour from now (to the hour, as it says it).
    const reset = new Date(Math.ceil((Date.now() + 3_600_000) / 3_600_000) * 3_600_000);
    const hour = reset.getUTCHours();
    const said = `${String(hour % 12 === 0 ? 12 : hour % 12)}${hour < 12 ? "am" : "pm"}`;
    const input = fixture("claude-code-read/StopFailure-rate_limit.json", {
      session_id: "levels-limit",
      cwd: home.dir,
      last_assistant_message: `You've hit your 5-hour limit · resets ${said} (UTC)`,
    });
    expect(await run(home, input)).toMatchObject({ code: 0 });
    const local = `${String(reset.getHours()).padStart(2, "0")}:${String(reset.getMinutes()).padStart(2, "0")}`;
    const [banner, ...more] = bus.calls();
    expect(more).toEqual([]);
    expect(banner).toMatchObject({ urgency: 1, icon: "dialog-warning" });
    expect(banner?.summary).toMatch(
      new RegExp(`Claude hit a usage limit, resets (tomorrow )?at ${local}$`),
    );
    expect(played(bin)).toEqual([]);
    const [first] = runLines(home);
    expect(first?.escalations).toBeUndefined();

    // The next turn hits the same limit (other words, so the 5 s dedupe does not catch it).
    const again = fixture("claude-code-read/StopFailure-rate_limit.json", {
      session_id: "levels-limit",
      cwd: home.dir,
      last_assistant_message: `You've hit your usage limit · resets ${said} (UTC)`,
    });
    expect(await run(home, again)).toMatchObject({ code: 0 });
    expect(bus.calls()).toHaveLength(1);
    const second = runLines(home)[1];
    expect(second?.skipped).toEqual(
      expect.arrayContaining([expect.objectContaining({ sink: "desktop", rule: "limit" })]),
    );
    await sleep(WINDOW_SECONDS * 1000 + 2000);
    expect(server.requests.filter((r) => r.url === "/phone")).toEqual([]);
  }, 150_000);
});

describe("a notification_type hook-notify does not know", () => {
  it("rings as needs you, and the log says so the first time only", async () => {
    const server = await startHttpServer();
    const home = tempHome();
    home.writeConfig({ sinks: { chat: { type: "webhook", url: `${server.url}/chat` } } });
    const input = (session: string) =>
      JSON.stringify({
        hook_event_name: "Notification",
        notification_type: "brand_new_type",
        message: "Something new",
        session_id: session,
      });
    const issue = /^notification_type "brand_new_type" is new to hook-notify: it rang as needs you/;
    for (const session of ["new-1", "new-2"])
      expect(await run(home, input(session))).toMatchObject({ code: 0, stderr: "" });
    const log = await runBin(["log"], { env: { ...home.env, NO_COLOR: "1" } });
    expect(log.stdout).toContain('note: notification_type "brand_new_type" is new to hook-notify');
    const lines = home.logLines().filter((line) => line.event === "Notification");
    expect(lines).toHaveLength(2);
    const noted = lines.map(
      (line) => (line.notes as string[] | undefined)?.some((text) => issue.test(text)) ?? false,
    );
    expect(noted).toEqual([true, false]);
    const levels = server.requests.map(
      (r) => (JSON.parse(r.body) as { data: { level: string } }).data.level,
    );
    expect(levels).toEqual(["attention", "attention"]);
  }, 120_000);
});

describe("a prompt a machine wrote does not answer an escalation", () => {
  const escalating = (server: TestHttpServer) => {
    const home = tempHome();
    home.writeConfig({
      escalate: { afterSeconds: WINDOW_SECONDS, to: ["phone"] },
      sinks: {
        chat: { type: "webhook", url: `${server.url}/chat` },
        phone: { type: "webhook", url: `${server.url}/phone`, events: [] },
      },
    });
    return home;
  };
  const hook = (home: TempHome, input: string) =>
    runBin(["--timeout", "10"], { input, env: home.env });

  it("a /loop wakeup (source loop_wakeup) leaves the follow-up due; the person's prompt (source user) cancels it", async () => {
    const server = await startHttpServer();
    const home = escalating(server);
    const permission = (session: string) =>
      fixture("claude-code/Notification.json", { session_id: session });
    const prompt = (session: string, source: string) =>
      fixture("claude-code/UserPromptSubmit.json", { session_id: session, source });
    await hook(home, permission("woken"));
    await hook(home, prompt("woken", "loop_wakeup"));
    await hook(home, permission("answered"));
    await hook(home, prompt("answered", "user"));
    await server.waitForRequests(3, 60_000); // two chat deliveries and one follow-up
    await sleep(WINDOW_SECONDS * 1000 + 2000); // nothing more comes
    const followUps = server.requests.filter((r) => r.url === "/phone");
    expect(followUps).toHaveLength(1);
    const body = JSON.parse(followUps[0]?.body ?? "{}") as { data: { session: { id: string } } };
    expect(body.data.session.id).toBe("woken");
  }, 120_000);
});
