// ntfy, publishing as JSON: https://github.com/binwiederhier/ntfy/blob/main/docs/publish.md
import * as z from "../../zod.js";
import type { HttpResponse } from "../../http/post.js";
import { assertSuccess } from "../../http/post.js";
import { redactUrl } from "../../redact.js";
import { idOf, parseJson } from "./answer.js";
import { formatNtfy, splitTopicUrl } from "./format-ntfy.js";
import {
  ACKNOWLEDGE_WINDOW,
  acknowledgeRequest,
  acknowledges,
  readAcknowledgement,
} from "./ntfy-acknowledge.js";
import {
  defineChatService,
  type AppriseForm,
  type ProbeRequest,
  type ReceiptPolling,
} from "./service.js";
import { encodeText } from "./text.js";
import { splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "ntfy", as validated (the url may be the Apprise form). */
export interface NtfyOptions {
  service: "ntfy";
  url: string;
  priority?: number | undefined;
  tags?: string[] | undefined;
  token?: string | undefined;
  acknowledge?: boolean | undefined;
  replyTopic?: string | undefined;
}

const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

// Apprise `ntfys://[TOKEN@]HOST/TOPIC` (https), `ntfy://HOST/TOPIC` (http), and `ntfy://TOPIC` on
// ntfy.sh; a token also as `?token=`. One topic: a user:password login is not read.
function parseApprise(value: string): Partial<NtfyOptions> | undefined {
  const url = splitUrl(value);
  if (!url || url.userinfo?.includes(":")) return undefined;
  const token = url.query.get("token") ?? url.userinfo;
  const withToken = token ? { token } : {};
  if (url.segments.length === 0 && TOPIC.test(url.host)) {
    return { url: `https://ntfy.sh/${url.host}`, ...withToken };
  }
  const topic = url.segments.at(-1) ?? "";
  if (url.host === "" || !TOPIC.test(topic)) return undefined;
  const scheme = url.scheme === "ntfys" ? "https" : "http";
  return { url: `${scheme}://${url.host}/${url.segments.join("/")}`, ...withToken };
}

// A 200 carries the published message; its `id` is the message id.
function read(response: HttpResponse, sinkName: string) {
  assertSuccess(response, { sinkName, service: "ntfy" });
  return { messageId: idOf(parseJson(response.text)?.id) };
}

// The Acknowledge button's presses, read from the reply topic (ntfy-acknowledge.ts). The chat
// sink hands these the options with an Apprise url already read.
const RECEIPTS: ReceiptPolling<NtfyOptions> = {
  window: (notification, options) =>
    acknowledges(notification, options) ? ACKNOWLEDGE_WINDOW : undefined,
  request: (sent, options) => acknowledgeRequest(splitTopicUrl(options.url).root, sent, options),
  read: readAcknowledgement,
};

const APPRISE: AppriseForm<NtfyOptions> = {
  schemes: ["ntfy", "ntfys"],
  form: "ntfys://HOST/TOPIC",
  parse: parseApprise,
};

// Everything hook-notify knows about an ntfy topic: options, Apprise form, request, answer.
export const ntfy = defineChatService<NtfyOptions>({
  id: "ntfy",
  name: "ntfy",
  shape: () => ({
    url: urlOption(
      APPRISE,
      "https://ntfy.sh/TOPIC",
      "The topic URL (e.g. https://ntfy.sh/mytopic), or its Apprise form ntfys://HOST/TOPIC.",
    ),
    priority: z.optional(
      z
        .int()
        .check(
          z.gte(1),
          z.lte(5),
          z.describe("Fixed priority 1-5 instead of 5 failure / 4 attention / 3 done."),
        ),
    ),
    tags: z.optional(
      z.array(z.string().check(z.minLength(1))).check(z.describe("Extra tags or emoji names.")),
    ),
    token: z.optional(
      z
        .string()
        .check(
          z.minLength(1),
          z.meta({ secret: true, description: "Access token (tk_…), sent as Bearer. Secret." }),
        ),
    ),
    acknowledge: z.optional(
      z
        .boolean()
        .check(
          z.describe(
            "true: failures and waiting agents get an Acknowledge button; a press is recorded as acknowledged and cancels follow-ups. Needs replyTopic.",
          ),
        ),
    ),
    replyTopic: z.optional(
      z.string().check(
        z.regex(TOPIC, "expected a topic name (letters, digits, - and _)"),
        z.meta({
          secret: true,
          description:
            "The topic (on the same server) the Acknowledge button posts to and the worker reads; not the notification topic. Secret.",
        }),
      ),
    ),
  }),
  refine: (options) => {
    if (options.acknowledge !== true) return undefined;
    if (options.replyTopic === undefined) {
      return {
        path: "replyTopic",
        message: '"acknowledge": true needs a replyTopic to read presses from',
      };
    }
    const url = resolveNtfy(options).url;
    const topic = /^https?:\/\//i.test(url)
      ? url
          .split("/")
          .filter((part) => part !== "")
          .at(-1)
      : undefined;
    return topic === options.replyTopic
      ? { path: "replyTopic", message: "must differ from the notification topic" }
      : undefined;
  },
  signs: (options) => options.acknowledge === true,
  receipts: RECEIPTS,
  apprise: APPRISE,
  build: formatNtfy,
  probe: probeNtfy,
  read,
  escape: encodeText,
  describe: (options) => redactUrl(options.url),
  // The topic is the secret of a public server; it moves from the URL into the body.
  secretParts: (options) => [splitTopicUrl(options.url).topic],
  example: "https://ntfy.sh/mytopic",
  starter: { name: "NTFY_URL", what: "the ntfy topic URL (https://ntfy.sh/<topic>)" },
});

// doctor: with a token, GET /v1/account proves it (a wrong token answers 401); without one, GET
// /v1/health proves an ntfy server answers, but whether it takes anonymous messages on this topic
// shows only when one is sent (docs.ntfy.sh: the account and health endpoints).
function probeNtfy(options: NtfyOptions): ProbeRequest {
  const resolved = resolveNtfy(options);
  const { root } = splitTopicUrl(resolved.url);
  if (resolved.token !== undefined) {
    const headers = { authorization: `Bearer ${resolved.token}` };
    return { url: `${root}v1/account`, method: "GET", headers, body: "" };
  }
  const unproved = "whether the topic takes anonymous messages shows only when one is sent";
  return { url: `${root}v1/health`, method: "GET", headers: {}, body: "", unproved };
}

// approve publishes through an ntfy entry: this tells one apart (the sink's schema checked it).
export function isNtfyEntry(entry: { type: string; options: unknown }): boolean {
  return entry.type === "chat" && (entry.options as { service?: unknown }).service === ntfy.id;
}

// An ntfy entry's options with an Apprise url read into the topic URL and token.
export function resolveNtfy(options: NtfyOptions): NtfyOptions {
  return /^ntfys?:\/\//i.test(options.url) ? { ...options, ...parseApprise(options.url) } : options;
}
