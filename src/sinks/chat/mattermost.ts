// Mattermost incoming webhooks: https://developers.mattermost.com/integrate/webhooks/incoming/
import * as z from "../../zod.js";
import { redactUrl } from "../../redact.js";
import { explainGoneWebhook, readStatus } from "./answer.js";
import { formatMattermost } from "./format-mattermost.js";
import { defineChatService, type AppriseForm } from "./service.js";
import { encodeMattermostText } from "./text.js";
import { splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "mattermost", as validated (the url may be the Apprise form). */
export interface MattermostOptions {
  service: "mattermost";
  url: string;
  username?: string | undefined;
  avatarUrl?: string | undefined;
}

// Apprise `mmost://HOST[:PORT][/PATH]/TOKEN` (http, port 8065 unless given) and `mmosts://` (https).
function parseApprise(value: string): Partial<MattermostOptions> | undefined {
  const url = splitUrl(value);
  const token = url?.segments.at(-1);
  if (!url || url.host === "" || token === undefined || !/^\w+$/.test(token)) return undefined;
  const secure = url.scheme === "mmosts";
  const host = secure || url.host.includes(":") ? url.host : `${url.host}:8065`;
  const prefix = url.segments
    .slice(0, -1)
    .map((s) => `${encodeURIComponent(s)}/`)
    .join("");
  return { url: `${secure ? "https" : "http"}://${host}/${prefix}hooks/${token}` };
}

const APPRISE: AppriseForm<MattermostOptions> = {
  schemes: ["mmost", "mmosts"],
  form: "mmosts://HOST/TOKEN",
  parse: parseApprise,
};

// Everything hook-notify knows about a Mattermost incoming webhook: options, Apprise form, request, answer.
export const mattermost = defineChatService<MattermostOptions>({
  id: "mattermost",
  name: "Mattermost",
  shape: () => ({
    url: urlOption(
      APPRISE,
      "https://HOST/hooks/…",
      "Mattermost incoming-webhook URL, or its Apprise form mmosts://HOST/TOKEN (mmost:// for http).",
    ),
    username: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.maxLength(80),
          z.describe("Name shown as the sender (the server must allow overriding it)."),
        ),
    ),
    avatarUrl: z.optional(
      z.url({ protocol: /^https?$/ }).check(z.describe("Picture shown as the sender.")),
    ),
  }),
  apprise: APPRISE,
  build: formatMattermost,
  read: readStatus("Mattermost"),
  escape: encodeMattermostText,
  describe: (options) => redactUrl(options.url),
  example: "https://mm.example.com/hooks/x",
  starter: { name: "MATTERMOST_WEBHOOK_URL", what: "the Mattermost webhook URL" },
  explain: explainGoneWebhook("Mattermost"),
});
