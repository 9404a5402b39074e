import { textInput } from "../../../src/input-source.js";
import { PassThrough } from "node:stream";
import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import type { Deps } from "../../../src/deps.js";
import { chat } from "../../../src/sinks/chat/index.js";
import type { ChatOptions } from "../../../src/sinks/chat/index.js";
import { hostile } from "./notifications.js";

// The webhook services (Telegram, Pushover and Gotify have test files of their own).
const CHAT_SERVICES = ["slack", "discord", "teams", "googlechat", "mattermost", "ntfy"] as const;
type ChatService = (typeof CHAT_SERVICES)[number];

const deps: Deps = {
  stdin: textInput(""),
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  env: {},
  platform: "linux",
  cwd: "/",
  homedir: "/nonexistent",
  now: () => 0,
};

const SECRET_URLS: Record<ChatService, string> = {
  slack: "https://hooks.slack.com/services/T0SECRET/B0SECRET/XXXXSECRET",
  discord: "https://discord.com/api/webhooks/123456SECRET/TOKENSECRET",
  teams: "https://prod.westeurope.logic.azure.com/workflows/abcSECRET/invoke?sig=SIGSECRET",
  googlechat:
    "https://chat.googleapis.com/v1/spaces/SPACESECRET/messages?key=KEYSECRET&token=TOKSECRET",
  mattermost: "https://mm.example.com/hooks/HOOKSECRET",
  ntfy: "https://ntfy.sh/topicSECRET",
};

describe("chat options", () => {
  it.each([
    { service: "slack", url: "https://hooks.slack.com/services/a" },
    {
      service: "discord",
      url: "https://discord.com/api/webhooks/1/x",
      username: "bot",
      avatarUrl: "https://a.b/c.png",
    },
    {
      service: "ntfy",
      url: "http://ntfy.local/alerts",
      priority: 5,
      tags: ["robot"],
      token: "tk_1",
    },
  ])("accepts %j", (entry) => {
    expect(chat.options.safeParse(entry).success).toBe(true);
  });

  it.each([
    ["an unknown service", { service: "telegram", url: "https://x.y/z" }],
    ["a non-http url", { service: "slack", url: "ftp://hooks.slack.com/x" }],
    ["a mention option", { service: "slack", url: "https://x.y/z", mention: "@channel" }],
    ["a priority out of range", { service: "ntfy", url: "https://ntfy.sh/t", priority: 6 }],
    ["an empty username", { service: "discord", url: "https://x.y/z", username: "" }],
  ])("rejects %s", (_name, entry) => {
    expect(chat.options.safeParse(entry).success).toBe(false);
  });

  it("marks url and token as secret in the JSON Schema", () => {
    const schema = z.toJSONSchema(chat.options) as {
      oneOf: { properties: Record<string, { secret?: boolean; const?: string }> }[];
    };
    const ntfy = schema.oneOf.find((variant) => variant.properties.service?.const === "ntfy");
    expect(ntfy?.properties.url?.secret).toBe(true);
    expect(ntfy?.properties.token?.secret).toBe(true);
  });
});

describe.each(CHAT_SERVICES)("%s: render and describeTarget", (service) => {
  const options: ChatOptions = { service, url: SECRET_URLS[service], token: "tk_TOKENSECRET" };

  it("describes the target as scheme + host only", () => {
    const origin = new URL(SECRET_URLS[service]).origin;
    expect(chat.describeTarget(options)).toBe(`${origin}/…`);
  });

  it("renders the exact request with every secret masked", () => {
    const rendered = chat.render(hostile, options, deps) as { method: string; url: string };
    expect(rendered.method).toBe("POST");
    // ntfy publishes to the server root, which holds no secret (the topic moves into the body).
    const origin = new URL(SECRET_URLS[service]).origin;
    expect(rendered.url).toBe(service === "ntfy" ? origin : `${origin}/…`);
    expect(JSON.stringify(rendered)).not.toContain("SECRET");
  });
});
