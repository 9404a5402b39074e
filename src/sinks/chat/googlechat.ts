// Google Chat incoming webhooks: https://developers.google.com/workspace/chat/quickstart/webhooks
import type { HttpResponse } from "../../http/post.js";
import { assertSuccess } from "../../http/post.js";
import { redactUrl } from "../../redact.js";
import { explainGoneWebhook, idOf, parseJson } from "./answer.js";
import { formatGoogleChat } from "./format-googlechat.js";
import { defineChatService, type AppriseForm } from "./service.js";
import { encodeText } from "./text.js";
import { splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "googlechat", as validated (the url may be the Apprise form). */
export interface GoogleChatOptions {
  service: "googlechat";
  url: string;
}

// Apprise `gchat://WORKSPACE/WEBHOOK_KEY/WEBHOOK_TOKEN`: the space's webhook URL.
function parseApprise(value: string): Partial<GoogleChatOptions> | undefined {
  const url = splitUrl(value);
  if (!url || url.segments.length !== 2 || !/^[\w-]+$/.test(url.host)) return undefined;
  const [key = "", token = ""] = url.segments;
  const query = new URLSearchParams({ key, token });
  return { url: `https://chat.googleapis.com/v1/spaces/${url.host}/messages?${query.toString()}` };
}

// A 200 carries the message; its `name` (spaces/…/messages/…) is its id.
function read(response: HttpResponse, sinkName: string) {
  assertSuccess(response, { sinkName, service: "Google Chat" });
  return { messageId: idOf(parseJson(response.text)?.name) };
}

const APPRISE: AppriseForm<GoogleChatOptions> = {
  schemes: ["gchat"],
  form: "gchat://WORKSPACE/WEBHOOK_KEY/WEBHOOK_TOKEN",
  parse: parseApprise,
};

// Everything hook-notify knows about a Google Chat space webhook: options, Apprise form, request, answer.
export const googlechat = defineChatService<GoogleChatOptions>({
  id: "googlechat",
  name: "Google Chat",
  shape: () => ({
    url: urlOption(
      APPRISE,
      "https://chat.googleapis.com/v1/spaces/…",
      "Google Chat webhook URL, or its Apprise form gchat://WORKSPACE/WEBHOOK_KEY/WEBHOOK_TOKEN.",
    ),
  }),
  apprise: APPRISE,
  build: formatGoogleChat,
  read,
  escape: encodeText,
  describe: (options) => redactUrl(options.url),
  example: "https://chat.googleapis.com/v1/spaces/A/messages?key=k&token=t",
  starter: { name: "GOOGLE_CHAT_WEBHOOK_URL", what: "the Google Chat webhook URL" },
  explain: explainGoneWebhook("Google Chat"),
});
