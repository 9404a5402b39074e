import type { ZodMiniType } from "../zod.js";
import type { CheckResult } from "../check-result.js";
import type { SinkEntry } from "../core/config.js";
import type { Deps } from "../deps.js";
import type { ErrorCode } from "../errors.js";
import type { Notification } from "../core/notification.js";
import type { ReceiptAnswer, ReceiptEvent, ReceiptWindow, SentMessage } from "../core/receipt.js";

/** What a sink gets besides the notification: the deadline signal and the process deps. */
export interface SendContext {
  /** Aborts when the delivery budget is spent; pass it to every fetch, spawn and socket. */
  signal: AbortSignal;
  deps: Deps;
  /** The sink's name in the config file, for error messages. */
  sinkName: string;
  /**
   * True when the caller waits for the outcome (worker, --wait, `test`). False on the hook
   * path, where a local sink may start its program and return without waiting for it.
   */
  wait: boolean;
  /**
   * Reports what became of the notification at this sink, during or after `send`: the banner
   * shown (with the id the notification daemon returned), clicked, closed (with the reason),
   * acknowledged. Best effort and never throws; absent where nobody records (dry runs).
   */
  receipt?: ((event: ReceiptEvent) => void) | undefined;
}

/** What a local sink saw of its program, for the log: still running, and which program ran. */
export interface SendReport {
  /** The program was still running when the hook went on: started, not seen delivered. */
  started?: boolean | undefined;
  /** The program that showed it, when the sink chose among several (a fallback says why). */
  via?: string | undefined;
  /** The message's id at a remote service that returns one (Telegram, Gotify, Pushover). */
  messageId?: string | undefined;
  /** Desktop: what a click on the banner brings back ("click: tmux pane %3"), or why the banner
   * has no action ("none: …"). Logged with the outcome. */
  action?: string | undefined;
  /** A message the person can acknowledge (Pushover emergency, ntfy's Acknowledge button): the worker asks the service
   * about `messageId` through `poll` within this window (delivery/receipt-watch.ts). */
  watch?: ReceiptWindow | undefined;
  /** Desktop on Linux, in the worker: settles when the followed banner is clicked or closed, or
   * its following ends: the id's later story, for the per-sink receipts. */
  closed?: Promise<BannerEnd> | undefined;
}

/** How a followed banner ended, as the bus's listener learned it (sinks/banner-listener.ts). */
export interface BannerEnd {
  /** "clicked": its default action; "closed": the daemon said why; "unknown": not learnt. */
  ended: "clicked" | "closed" | "unknown";
  /** The banner's id at the notification daemon. */
  id: string;
  /** The close reason in words ("dismissed"); after a click, what it brought back; when
   * unknown, why ("dbus-monitor not found", "not closed within 600 s"). */
  reason: string;
}

/** What a sink's doctor check may read: the machine, and the secrets to mask in what it says. */
export interface CheckContext {
  deps: Pick<Deps, "env" | "platform" | "homedir" | "arch" | "osRelease">;
  secrets: readonly string[];
}

/** One entry `hook-notify init --sinks <choice>` can write; its secret only as a ${VAR}. */
export interface Starter {
  /** The name --sinks takes ("desktop", "slack"). */
  readonly choice: string;
  /** The environment variable holding its secret, and what that secret is (init says both). */
  readonly secret?: { readonly name: string; readonly what: string };
  /** Other variables the entry reads besides the secret (the webhook's URL). */
  readonly vars?: readonly string[];
  /** A local sink's starter that init writes only when chosen, not by default (the terminal). */
  readonly chosenOnly?: boolean;
  /** The config entry; `secretRef` is the secret's "${VAR}", `smtp` init's e-mail answers. */
  entry(secretRef: string, smtp: StarterSmtp): Record<string, unknown>;
}

/** init's answers for an e-mail starter. */
export interface StarterSmtp {
  host: string;
  port: number;
  user: string;
  address: string;
}

/** A failed delivery as `hook-notify test` knows it: data only, never the message to parse. */
export interface SinkFailure {
  code?: ErrorCode | undefined;
  /** The HTTP status the server answered with. */
  status?: number | undefined;
  /** The chat service (slack, discord, …) for a chat sink. */
  service?: string | undefined;
}

/** One way of telling a person: desktop banner, sound, chat message, e-mail, webhook. */
export interface Sink<Options> {
  /** The `type` value that selects this sink in the config file. */
  readonly type: string;
  /** zod schema for this sink's entry in the config file (without `type`, `events`, `when`). */
  readonly options: ZodMiniType<Options>;
  /** Remote sinks go through the outbox and the background worker; local ones run in the hook. */
  readonly remote: boolean;
  /** A sink a person hears (sound, voice): Do Not Disturb's "respect" keeps it quiet. */
  readonly audible?: boolean;
  /** Where it goes, for logs and tables; secrets masked (a host, a player name). */
  describeTarget(options: Options): string;
  /** Why this sink has nothing to deliver for this notification (the sound sink for a level it
   * has no sound for), or undefined. Asked by route(); pure. */
  silentFor?(notification: Notification, options: Options): string | undefined;
  /** The exact payload `send` would deliver, secrets masked; shown by --dry-run. Pure. */
  render(notification: Notification, options: Options, deps: Deps): unknown;
  /** doctor: can it deliver from here, checked the way `send` runs? Its code loads on call. */
  check(entry: SinkEntry, ctx: CheckContext): Promise<CheckResult>;
  /** init: the entries it offers, one per --sinks choice (chat: one per service). */
  readonly starters: readonly Starter[];
  /** test: the next step for one of its failures, or undefined for the advice every sink gets. */
  explain(failure: SinkFailure): string | undefined;
  /** Deliver one notification. Resolve on success; reject with a HookNotifyError on failure. */
  // eslint-disable-next-line @typescript-eslint/no-invalid-void-type -- remote sinks resolve with nothing; only local ones report
  send(notification: Notification, options: Options, ctx: SendContext): Promise<SendReport | void>;
  /** A remote sink whose `send` reports a `watch`: one look at a sent message's receipt. */
  poll?(sent: SentMessage, options: Options, ctx: SendContext): Promise<ReceiptAnswer>;
}

/** What a sink module writes: like Sink, with its options schema built on first use. */
export interface SinkDefinition<Options> extends Omit<Sink<Options>, "options"> {
  options: () => ZodMiniType<Options>;
}

// Each sink module gets its Options type inferred from its schema. The schema is built when first
// read: a hook run validates only the sinks its config names, and building zod schemas costs ms.
export function defineSink<Options>(definition: SinkDefinition<Options>): Sink<Options> {
  const { options, ...sink } = definition;
  let schema: ZodMiniType<Options> | undefined;
  return Object.defineProperty(sink, "options", {
    enumerable: true,
    get: () => (schema ??= options()),
  }) as Sink<Options>;
}
