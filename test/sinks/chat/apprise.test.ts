// Apprise URLs in `url`: each service reads its form into the request it would send for the
// URL it stands for; the masked target never shows the token.
import { describe, expect, it } from "vitest";
import { buildChatRequest, chat, type ChatOptions } from "../../../src/sinks/chat/index.js";
import { stop } from "./notifications.js";

const CASES: [string, string, string][] = [
  [
    "slack",
    "slack://T0AAAA/B0BBBB/abcdefSECRET",
    "https://hooks.slack.com/services/T0AAAA/B0BBBB/abcdefSECRET",
  ],
  [
    "discord",
    "discord://123456/tokSECRET-x_y",
    "https://discord.com/api/webhooks/123456/tokSECRET-x_y?wait=true",
  ],
  [
    "googlechat",
    "gchat://AAAA/keySECRET/tokSECRET",
    "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=keySECRET&token=tokSECRET",
  ],
  [
    "mattermost",
    "mmost://mm.example.com/hookSECRET",
    "http://mm.example.com:8065/hooks/hookSECRET",
  ],
  [
    "mattermost",
    "mmosts://mm.example.com/chat/hookSECRET",
    "https://mm.example.com/chat/hooks/hookSECRET",
  ],
  ["ntfy", "ntfy://topicSECRET", "https://ntfy.sh/"],
  ["ntfy", "ntfys://ntfy.example.com/topicSECRET", "https://ntfy.example.com/"],
  ["ntfy", "ntfy://ntfy.local:8080/topicSECRET", "http://ntfy.local:8080/"],
  [
    "teams",
    "workflows://prod-1.westus.logic.azure.com:443/wfSECRET/sigSECRET",
    "https://prod-1.westus.logic.azure.com:443/workflows/wfSECRET/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=sigSECRET",
  ],
];

describe.each(CASES)("%s: %s", (service, url, expected) => {
  const options = { service, url } as ChatOptions;

  it("is accepted by the schema", () => {
    expect(chat.options.safeParse(options).success).toBe(true);
  });

  it("sends to the URL it stands for", () => {
    expect(buildChatRequest(stop, options).url).toBe(expected);
  });

  it("shows no secret in the target or the rendered request", () => {
    expect(chat.describeTarget(options)).not.toContain("SECRET");
    expect(JSON.stringify(chat.render(stop, options, undefined as never))).not.toContain("SECRET");
  });
});

it("an ntfy token may ride in the Apprise URL", () => {
  const options = {
    service: "ntfy",
    url: "ntfys://tk_abcdef@ntfy.example.com/alerts",
  } as ChatOptions;
  expect(buildChatRequest(stop, options).headers.authorization).toBe("Bearer tk_abcdef");
});

it.each([
  ["slack", "slack://only/two"],
  ["discord", "discord://notanumber/tok"],
  ["ntfy", "ntfy://user:pass@host/topic"],
  ["teams", "msteams://team/a/b/c/d"],
])("%s rejects %s", (service, url) => {
  expect(chat.options.safeParse({ service, url }).success).toBe(false);
});
