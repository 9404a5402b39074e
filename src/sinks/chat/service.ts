// The chat-service contract: everything hook-notify knows about one chat service (Slack,
// Telegram, Gotify, …) sits in that service's file as one `defineChatService` object, and
// `services.ts` lists them. The `chat` sink (index.ts) only walks the list.
import type * as z from "../../zod.js";
import type { Notification } from "../../core/notification.js";
import type { HttpResponse } from "../../http/post.js";
import type { ReceiptAnswer, ReceiptWindow, SentMessage } from "../../core/receipt.js";
import type { SinkFailure } from "../sink.js";

/** The options every service's entry has: which service it is, and usually its URL. */
export interface ServiceOptions {
  service: string;
}

/** The HTTP request a service builds for one notification, secrets included. */
export interface ChatRequest {
  url: string;
  /** POST unless the API says otherwise (Matrix sends with PUT; a receipt poll is a GET). */
  method?: "POST" | "PUT" | "GET";
  headers: Record<string, string>;
  /** The JSON value to send, or, with `form`, flat fields sent urlencoded. */
  body: unknown;
  /** Send `body` as application/x-www-form-urlencoded instead of JSON. */
  form?: boolean;
}

/** doctor's look at an entry. `unproved` names what it cannot prove (Gotify's application token
 * is read only when a message is sent): a good answer then says "reachable only", not "ok". */
export interface ProbeRequest extends ChatRequest {
  unproved?: string | undefined;
}

/** What a service said when it took the message. */
export interface ChatReceipt {
  /** The service's own id of the message (Telegram message_id, Gotify id, Pushover receipt). */
  messageId?: string | undefined;
}

/** A service whose messages a person acknowledges, and that tells who and when when asked. */
export interface ReceiptPolling<Options> {
  /** The window for one sent message, or undefined when it asks for no acknowledgement. Pure. */
  window(notification: Notification, options: Options): ReceiptWindow | undefined;
  /** The GET that asks about one message by the id `read` returned (secrets included). Pure. */
  request(sent: SentMessage, options: Options): ChatRequest;
  /** Reads the answer; throws a HookNotifyError (retryable or not) for a failed look. `key`: the
   * machine key, for a service that `signs` (an acknowledgement counts only when it verifies). */
  read(
    response: HttpResponse,
    look: { sinkName: string; sent: SentMessage; key?: Buffer | undefined },
  ): ReceiptAnswer;
}

/** Apprise's URL syntax for a service: `tgram://BOT_TOKEN/CHAT_ID`. */
export interface AppriseForm<Options> {
  /** The schemes (without "://") that select this service's form. */
  readonly schemes: readonly string[];
  /** The form as people write it, for messages and docs. */
  readonly form: string;
  /** The options an Apprise URL stands for, or undefined when it does not fit the form. Pure. */
  parse(url: string): Partial<Options> | undefined;
}

/** One chat service: declared once, in its own file. */
export interface ChatService<Options extends ServiceOptions> {
  /** The `service` value in the config file. */
  readonly id: Options["service"];
  /** Its name in messages ("Telegram"). */
  readonly name: string;
  /** Its options besides `service`, each described for the JSON Schema; secrets `z.meta({ secret: true })`. */
  readonly shape: () => z.core.$ZodShape;
  /** Rules across options (one of url or token + chat id); checked with the entry. */
  readonly refine?: (options: Options) => { path: string; message: string } | undefined;
  /** Its Apprise URL form, accepted in `url`. */
  readonly apprise: AppriseForm<Options>;
  /** The request for one notification, with every field the service documents. Pure. `key`:
   * the machine key when `signs` says the message carries a signed button (absent in a dry run). */
  build(notification: Notification, options: Options, key?: Buffer): ChatRequest;
  /** True when this entry's messages carry a button signed with the machine key (machine-key.ts). */
  signs?(options: Options): boolean;
  /** Reads the answer: the receipt, or throws a HookNotifyError saying whether a retry helps. */
  read(response: HttpResponse, sinkName: string): ChatReceipt;
  /** Makes agent text inert in the service's markup (no link, mention or formatting). Pure. */
  escape(text: string): string;
  /** Where it goes, secrets masked: doctor, --dry-run, logs. Pure. */
  describe(options: Options): string;
  /** Secrets hidden inside a secret option that show up on their own (ntfy's topic). */
  secretParts?(options: Options): string[];
  /** A `url` it accepts, with made-up secrets: tests and docs build sample requests from it. */
  readonly example: string;
  /** init's starter: the variable holding its secret (an entry of `{ service, url: ref }`). */
  readonly starter: { name: string; what: string };
  /** test: the next step for one of its failures, or undefined. */
  explain?(failure: SinkFailure): string | undefined;
  /** doctor: a read-only request that proves the entry without notifying anyone (Discord's
   * webhook look-up, Telegram's getMe, Pushover's validate, Matrix's whoami), secrets included;
   * without it doctor can only say the host is reachable (Slack: a webhook proves itself only by
   * posting). */
  probe?(options: Options): ProbeRequest;
  /** Acknowledgements the worker can ask for after sending (Pushover's emergency receipts). */
  readonly receipts?: ReceiptPolling<Options>;
}

// Identity: each service's Options type is inferred from its definition.
export function defineChatService<Options extends ServiceOptions>(
  service: ChatService<Options>,
): ChatService<Options> {
  return service;
}
