// The sink contract: every registered sink says how doctor checks it, what init writes for it and
// how test explains its failures, and those three commands take that knowledge from the sink.
import { describe, expect, it } from "vitest";
import { likelyFix } from "../../src/commands/test-fix.js";
import { loadConfig } from "../../src/config/load-config.js";
import { runDoctor } from "../../src/doctor/run-doctor.js";
import { buildStarterConfig, DEFAULT_SMTP, SINK_CHOICES } from "../../src/init/starter-config.js";
import { serviceSchema } from "../../src/sinks/chat/index.js";
import { chatServices } from "../../src/sinks/chat/services.js";
import { sinks } from "../../src/sinks/index.js";
import * as z from "zod/mini";
import type { SinkFailure } from "../../src/sinks/sink.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { hasDisguisedLink, hasLiveMention, hostile, spoofing } from "./chat/notifications.js";
import { startHttpServer } from "../helpers/http-server.js";
import { tempHome } from "../helpers/run-bin.js";
import { startSmtpServer } from "../helpers/smtp-server.js";

describe.each(sinks.map((sink) => [sink.type, sink] as const))("the %s sink", (type, sink) => {
  it("provides check, starters and explain", () => {
    expect(typeof sink.check).toBe("function");
    expect(typeof sink.explain).toBe("function");
    expect(sink.starters.length).toBeGreaterThan(0);
  });

  it("is what init writes for each of its starters", () => {
    const answers = { envNames: {}, smtp: DEFAULT_SMTP };
    for (const starter of sink.starters) {
      expect(SINK_CHOICES).toContain(starter.choice);
      const written = buildStarterConfig([starter.choice], answers, "schema.json");
      const ref = starter.secret ? `\${${starter.secret.name}}` : "${}";
      expect(written["sinks"]).toEqual({ [starter.choice]: starter.entry(ref, DEFAULT_SMTP) });
      expect(starter.entry(ref, DEFAULT_SMTP)["type"]).toBe(type);
    }
  });
});

describe("test's advice", () => {
  const failures: SinkFailure[] = [
    { code: "SINK_HTTP_STATUS", status: 404, service: "slack" },
    { code: "SINK_HTTP_STATUS", status: 410, service: "discord" },
    { code: "SINK_HTTP_STATUS", status: 404, service: "ntfy" },
    { code: "SINK_AUTH" },
    { code: "SINK_HTTP_STATUS", status: 503 },
  ];

  it("is the sink's own explanation whenever it has one", () => {
    let explained = 0;
    for (const sink of sinks) {
      for (const failure of failures) {
        const own = sink.explain(failure);
        if (own === undefined) continue;
        explained++;
        expect(likelyFix({ type: sink.type, ...failure })).toBe(own);
      }
    }
    expect(explained).toBeGreaterThanOrEqual(3); // chat: Slack, Discord; email: its login
  });
});

describe("doctor", () => {
  it("prints each registered sink's own check for its entry", async () => {
    const http = await startHttpServer();
    const smtp = await startSmtpServer({ auth: { user: "u", pass: "p" } });
    const bin = fakeBin(["aplay", "spd-say"]);
    const bus = await fakeNotificationBus();
    const home = tempHome({ PATH: bin.env["PATH"], ...bus.env });
    const entries: Record<string, Record<string, unknown>> = {
      // focusSeconds 0: no dbus-monitor is asked for (the fake PATH has none).
      desktop: { type: "desktop", backend: "notify-send", focusSeconds: 0 },
      sound: { type: "sound" },
      voice: { type: "voice" },
      terminal: { type: "terminal" },
      chat: { type: "chat", service: "slack", url: `${http.url}/hook` },
      email: {
        type: "email",
        smtp: { host: "127.0.0.1", port: smtp.port, user: "u", pass: "p" },
        from: "a@example.com",
        to: ["b@example.com"],
      },
      webhook: { type: "webhook", url: `${http.url}/hook` },
    };
    expect(Object.keys(entries).sort()).toEqual(sinks.map((sink) => sink.type).sort());
    const file = home.writeConfig({ sinks: entries });
    const deps = {
      env: home.env,
      homedir: home.dir,
      platform: "linux" as const,
      cwd: home.dir,
      now: () => Date.now(),
      arch: "x64",
      osRelease: "6.1.0",
      ppid: process.ppid,
    };
    const results = await runDoctor(deps, { configPath: file, nodeVersion: "22.0.0" });
    const loaded = loadConfig(deps, { configPath: file, projectDir: home.dir });
    for (const sink of sinks) {
      const entry = loaded.value.sinks[sink.type];
      if (!entry) throw new Error(`no ${sink.type} entry`);
      const own = await sink.check(entry, { deps, secrets: loaded.secrets });
      expect(results.filter((r) => r.check === own.check)).toEqual([own]);
      // A remote sink nothing proves without sending (Slack here, a webhook) is "reachable".
      expect(own.status).toBe(["chat", "webhook"].includes(sink.type) ? "reachable" : "ok");
    }
  });
});

// The chat-service contract: every listed service is an init choice, reads its own Apprise form,
// marks its secrets, and shows none of them in --dry-run or doctor's target.
describe.each(chatServices.map((service) => [service.id, service] as const))(
  "the %s chat service",
  (id, service) => {
    const schema = serviceSchema(service as never);

    it("is an init choice writing its Apprise-ready url entry", () => {
      expect(SINK_CHOICES).toContain(id);
      expect(service.starter.name).toMatch(/^[A-Z_]+$/);
    });

    it("declares a name, its Apprise form and a secret url", () => {
      expect(service.name).not.toBe("");
      expect(service.apprise.schemes.length).toBeGreaterThan(0);
      const scheme = /^([a-z]+):\/\//.exec(service.apprise.form)?.[1] ?? "";
      expect(service.apprise.schemes).toContain(scheme);
      const json = z.toJSONSchema(schema) as { properties: Record<string, { secret?: boolean }> };
      expect(json.properties["url"]?.secret).toBe(true);
    });

    it("escapes agent text into something that pings nobody and hides no link", () => {
      for (const text of [
        `${hostile.title}\n${hostile.body}`,
        `${spoofing.title}\n${spoofing.body}`,
      ]) {
        const escaped = service.escape(text);
        expect(hasLiveMention(escaped) ? escaped : "inert").toBe("inert");
        expect(hasDisguisedLink(escaped) ? escaped : "inert").toBe("inert");
      }
    });

    it("accepts its own example url", () => {
      expect(z.safeParse(schema, { service: id, url: service.example }).success).toBe(true);
    });

    it("rejects a url of another scheme in one line naming its form", () => {
      const result = z.safeParse(schema, { service: id, url: "ftp://example.com/x" });
      expect(result.success).toBe(false);
      const messages = result.success ? [] : result.error.issues.map((issue) => issue.message);
      expect(messages.some((message) => message.includes(service.apprise.form))).toBe(true);
    });
  },
);
