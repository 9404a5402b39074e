// Issue 27 on the BUILT binary: a Discord webhook that is gone (404) with "fallback": ["mail"]
// and a mail sink that only stands in ("events": []); the worker delivers by e-mail exactly once
// and `hook-notify log` says what became of the notification at each sink; a banner's
// id (from the daemon's reply on a private D-Bus) comes back as a receipt.
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import {
  isNotificationDaemonAvailable,
  startNotificationDaemon,
} from "../helpers/notification-daemon.js";
import { enqueue } from "../../src/outbox/store.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";
import { waitUntil } from "../helpers/wait-until.js";
import { sampleNotification } from "../helpers/sample-notification.js";
import { startSmtpServer } from "../helpers/smtp-server.js";

const TOKEN = "DISCORDTOKEN-do-not-leak-77";

// The Discord sink of these tests: its webhook answers 404, so it gives up and falls back to mail.
const discordTeam = (url: string) => ({
  type: "chat",
  service: "discord",
  url: `${url}/api/webhooks/1/${TOKEN}`,
  fallback: ["mail"],
});

// The mail sink on the local SMTP server; `events: []` when it serves only as a fallback.
const mailSink = (port: number, events?: string[]) => ({
  type: "email",
  ...(events ? { events } : {}),
  from: "agent@example.com",
  to: ["dev@example.com"],
  smtp: { host: "127.0.0.1", port, secure: false },
});

describe("fallback and receipts, end to end", () => {
  it("Discord 404 → the same notification by e-mail once; log and log --json say so", async () => {
    const discord = await startHttpServer([
      { status: 404, body: '{"message": "Unknown Webhook", "code": 10015}' },
    ]);
    const smtp = await startSmtpServer();
    const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
    home.writeConfig({
      sinks: {
        team: discordTeam(discord.url),
        mail: mailSink(smtp.port, []),
      },
    });
    const hook = await runBin([], { input: fixture("claude-code/Stop.json"), env: home.env });
    expect(hook).toMatchObject({ code: 0, stdout: "" });
    await waitUntil(() => home.logLines().some((l) => l.outbox === "delivered"));
    expect(discord.requests).toHaveLength(1);
    expect(smtp.messages).toHaveLength(1);

    const json = await runBin(["log", "--json"], { env: home.env });
    const lines = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const id = lines[0]?.id;
    expect(lines).toEqual([
      expect.objectContaining({ event: "Stop", id }),
      expect.objectContaining({
        outbox: "failed",
        sink: "team",
        id,
        code: "SINK_HTTP_STATUS",
        message: expect.stringContaining("404") as string,
        fallback: ["mail"],
      }),
      expect.objectContaining({
        outbox: "delivered",
        sink: "mail",
        id,
        fallbackOf: "team",
        // the receipt: the Message-ID the SMTP server accepted
        messageId: expect.stringMatching(/^<.+@example\.com>$/) as string,
      }),
    ]);

    const table = await runBin(["log"], { env: home.env });
    const row = table.stdout.trimEnd().split("\n")[1] ?? "";
    expect(row).toContain("failed team SINK_HTTP_STATUS → mail, ok mail (fallback for team) (id <");
    expect(row).not.toContain("skipped mail");
    // Delivered by a fallback: somebody received it, so --failed does not list it.
    const failed = await runBin(["log", "--failed"], { env: home.env });
    expect(failed.stdout).toMatch(/^No failed runs among the 1 logged/);
    expect(json.stdout + table.stdout).not.toContain(TOKEN);
  });
});

describe("flush and fallback", () => {
  it("a flush sends the fallback it queued in the same run, and says so", async () => {
    const discord = await startHttpServer([{ status: 404, body: "{}" }]);
    const smtp = await startSmtpServer();
    const box = await outboxEnv({
      team: discordTeam(discord.url),
      mail: mailSink(smtp.port, []),
    });
    const notification = sampleNotification();
    await enqueue(box.deps, { notification, sinkName: "team" });
    const flush = await runBin(["flush"], { env: { ...box.env, PATH: process.env.PATH } });
    expect(flush.stdout).toContain(`✗ team ${notification.id} failed: `);
    expect(flush.stdout).toContain(" → mail\n");
    expect(flush.stdout).toContain(`✓ mail ${notification.id} delivered (fallback for team)`);
    expect(flush.stdout).toContain("Outbox: 1 delivered, 1 failed.");
    expect(smtp.messages).toHaveLength(1);
  });
});

describe("fallback for a local sink, end to end", () => {
  it("a desktop sink that cannot show a banner hands the notification to mail", async () => {
    const smtp = await startSmtpServer();
    // No session bus: the banner fails for good in the worker's run of the hook.
    const home = tempHome({ DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" });
    home.writeConfig({
      sinks: {
        banner: { type: "desktop", fallback: ["mail"] },
        mail: mailSink(smtp.port, []),
      },
    });
    await runBin([], { input: fixture("claude-code/Stop.json"), env: home.env });
    await waitUntil(() => home.logLines().some((l) => l.outbox === "delivered"));
    expect(smtp.messages).toHaveLength(1);
    expect(home.logLines().find((l) => Array.isArray(l.outcomes))).toMatchObject({
      outcomes: [{ sink: "banner", ok: false, fallback: ["mail"] }],
    });
    const table = await runBin(["log"], { env: home.env });
    expect(table.stdout.trimEnd().split("\n")[1]).toMatch(
      /failed banner SINK_\w+ → mail, ok mail \(fallback for banner\)/,
    );
  });
});

describe.runIf(isNotificationDaemonAvailable())("desktop receipts, end to end", () => {
  it.each([
    // dbusmock emits it to everyone, as mako does
    ["dismissed by the person", 2, "dismissed", undefined],
    // GNOME Shell and dunst send it only to the banner's sender: here another connection
    ["expired, told only to the gone sender", 1, "expired", ":1.999"],
  ])(
    "a banner on a private D-Bus: log shows the daemon's id and the close reason (%s)",
    async (_what, reason, words, destination) => {
      const daemon = await startNotificationDaemon();
      const home = tempHome({
        ...daemon.env,
        PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
      });
      home.writeConfig({ sinks: { banner: { type: "desktop" } } });
      const hook = await runBin([], { input: fixture("claude-code/Stop.json"), env: home.env });
      expect(hook).toMatchObject({ code: 0, stdout: "" });
      await daemon.waitForCalls(1, 20_000);
      const receipts = () => home.logLines().filter((l) => l.outbox === "receipt");
      await waitUntil(() => receipts().some((l) => l.state === "shown"));
      const run = home.logLines().find((l) => Array.isArray(l.outcomes));
      expect(receipts()[0]).toMatchObject({
        sink: "banner",
        id: run?.id,
        state: "shown",
        messageId: "1",
      });

      // The daemon closes the banner; the worker's listener tells the log why.
      await daemon.closeNotification(1, reason, destination);
      await waitUntil(() => receipts().some((l) => l.state === "closed"));
      expect(receipts().find((l) => l.state === "closed")).toMatchObject({
        sink: "banner",
        id: run?.id,
        state: "closed",
        messageId: "1",
        reason: words,
      });
      const table = await runBin(["log"], { env: home.env });
      expect(table.stdout.trimEnd().split("\n")[1]).toContain(`ok banner (shown #1, ${words})`);
      const json = await runBin(["log", "--json"], { env: home.env });
      const lines = json.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toContainEqual(
        expect.objectContaining({ outbox: "receipt", state: "closed", reason: words }),
      );
    },
    90_000,
  );
});

// A fallback target that is also one of the notification's own sinks gets it once, not twice.
describe("a fallback to a sink that already has the notification", () => {
  it("the worker path: Discord gives up, mail got it directly; one e-mail, the log says why", async () => {
    const discord = await startHttpServer([{ status: 404, body: "{}" }]);
    const smtp = await startSmtpServer();
    const home = tempHome({ HOOK_NOTIFY_LOCAL_SINKS: "0" });
    home.writeConfig({
      sinks: {
        team: discordTeam(discord.url),
        mail: mailSink(smtp.port),
      },
    });
    await runBin([], { input: fixture("claude-code/Stop.json"), env: home.env });
    await waitUntil(
      () =>
        home.logLines().some((l) => l.outbox === "failed") &&
        home.logLines().some((l) => l.outbox === "delivered"),
    );
    await new Promise((resolve) => setTimeout(resolve, 2000)); // nothing more comes
    expect(smtp.messages).toHaveLength(1);
    expect(home.logLines().find((l) => l.outbox === "failed")).toMatchObject({
      sink: "team",
      fallbackSkipped: ["mail"],
    });
    const table = await runBin(["log"], { env: { ...home.env, NO_COLOR: "1" } });
    expect(table.stdout).toContain(
      "failed team SINK_HTTP_STATUS (fallback to mail skipped: it already has it)",
    );
    // mail received it: --failed does not list it.
    const failed = await runBin(["log", "--failed"], { env: home.env });
    expect(failed.stdout).toMatch(/^No failed runs among the 1 logged/);
  });

  it("the hook path: a desktop sink that fails, mail among its sinks; one e-mail", async () => {
    const smtp = await startSmtpServer();
    const home = tempHome({ DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" });
    home.writeConfig({
      sinks: { banner: { type: "desktop", fallback: ["mail"] }, mail: mailSink(smtp.port) },
    });
    await runBin([], { input: fixture("claude-code/Stop.json"), env: home.env });
    await waitUntil(() => home.logLines().some((l) => l.outbox === "delivered"));
    await new Promise((resolve) => setTimeout(resolve, 2000)); // nothing more comes
    expect(smtp.messages).toHaveLength(1);
    expect(home.logLines().find((l) => Array.isArray(l.outcomes))).toMatchObject({
      outcomes: expect.arrayContaining([
        expect.objectContaining({ sink: "banner", ok: false, fallbackSkipped: ["mail"] }),
      ]) as unknown,
    });
    const table = await runBin(["log"], { env: { ...home.env, NO_COLOR: "1" } });
    expect(table.stdout).toMatch(
      /failed banner SINK_\w+ \(fallback to mail skipped: it already has it\)/,
    );
  });
});
