// Which channel `hook-notify approve` asks through (an ntfy topic pair, or a Telegram bot and
// chat), with its secrets: all from the user's config.
import { isIPv4 } from "node:net";
import { APPROVE_EXIT_MARGIN_MS } from "../core/defaults.js";
import type { Config, SinkEntry } from "../core/config.js";
import { isNtfyEntry, resolveNtfy, type NtfyOptions } from "../sinks/chat/ntfy.js";
import { telegram, telegramTarget, type TelegramOptions } from "../sinks/chat/telegram.js";
import { HookNotifyError } from "../errors.js";
import { splitTopicUrl } from "../sinks/chat/format-ntfy.js";

/** What every channel's setup has. */
interface SetupCommon {
  /** The chat sink's name in the config (for the log). */
  sinkName: string;
  seconds: number;
  when: "away" | "always";
}

/** One permission round trip through ntfy: a request topic and a secret reply topic. */
export interface NtfySetup extends SetupCommon {
  service: "ntfy";
  /** The ntfy server root, ending in "/": JSON is published here. */
  root: string;
  /** Where the request goes: the sink's topic, which the phone subscribes to. */
  requestTopic: string;
  /** Where the phone's buttons post the answer; random per install, secret. */
  replyTopic: string;
  /** The ntfy access token (required): sent on the publish, the subscribe and in the buttons. */
  token: string;
}

/** One permission round trip through a Telegram bot: inline buttons, presses by getUpdates. */
export interface TelegramSetup extends SetupCommon {
  service: "telegram";
  /** The Bot API server without a trailing "/". */
  api: string;
  /** Secret: it is the bot. */
  botToken: string;
  /** The one chat whose presses count (a number, as text). */
  chatId: string;
  threadId?: number | undefined;
}

/** Everything one permission round trip needs from the config. */
export type ApproveSetup = NtfySetup | TelegramSetup;

/** Why approve cannot ask the phone, as a sentence with the next step. */
export interface SetupProblem {
  problem: string;
}

// The chat sink approve asks through: approveSink, else the only enabled ntfy sink, else the only
// enabled Telegram sink.
export function resolveSetup(config: Config): ApproveSetup | SetupProblem {
  const sink = pickSink(config);
  if ("problem" in sink) return sink;
  const common = { sinkName: sink.name, seconds: config.approveSeconds, when: config.approveWhen };
  if (isTelegramEntry(sink))
    return telegramSetup(sink.name, sink.options as TelegramOptions, common);
  const options = resolveNtfy(sink.options as NtfyOptions);
  let split: { root: string; topic: string };
  try {
    split = splitTopicUrl(options.url);
  } catch (error) {
    return { problem: `sinks.${sink.name}.url: ${(error as Error).message}` };
  }
  const clear = clearTextProblem(split.root, `sinks.${sink.name}.url`);
  if (clear) return clear;
  // An answer grants a command: a topic anyone can post to is no place to take one from.
  if (options.token === undefined || options.token === "") {
    return {
      problem: `sinks.${sink.name}: approving from the phone needs an ntfy access token ("token": "tk_…", with read and write access to its topics): without one, anyone who guesses the topic can press Allow. Add it, then run: hook-notify install --approve`,
    };
  }
  const replyTopic = config.approveReplyTopic;
  if (replyTopic === undefined) {
    return { problem: "approveReplyTopic is not set. Run: hook-notify install --approve" };
  }
  if (replyTopic === split.topic) {
    return {
      problem: `approveReplyTopic must differ from the request topic of sinks.${sink.name}. Remove it and run: hook-notify install --approve`,
    };
  }
  return {
    service: "ntfy",
    ...common,
    root: split.root,
    requestTopic: split.topic,
    replyTopic,
    token: options.token,
  };
}

// A Telegram sink answers only with a bot token and a numeric chat id: the presses are read with
// the token, and only a press from that chat counts.
function telegramSetup(
  name: string,
  options: TelegramOptions,
  common: SetupCommon,
): TelegramSetup | SetupProblem {
  const { botToken, chatId, threadId, api } = telegramTarget(options);
  if (botToken === "") {
    return {
      problem: `sinks.${name}: approving from Telegram needs the bot's token ("botToken": "123456:ABC…" from @BotFather): the presses are read with it. Add it, then run: hook-notify install --approve`,
    };
  }
  if (!/^-?\d+$/.test(String(chatId))) {
    return {
      problem: `sinks.${name}: approving from Telegram needs the numeric chat id ("chatId": 123456789, or -100… for a group), not a @name: only presses from that chat count.`,
    };
  }
  const clear = clearTextProblem(api, `sinks.${name}.apiUrl`);
  if (clear) return clear;
  return { service: telegram.id, ...common, api, botToken, chatId: String(chatId), threadId };
}

// An approval carries the token and the signed Allow: over plain http anyone on the path reads
// them and can press Allow first. Only https, or a server on this machine (loopback), is taken.
export function clearTextProblem(url: string, place: string): SetupProblem | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: `${place}: not a URL. Write it as https://host/…` };
  }
  if (parsed.protocol !== "http:" || isLoopback(parsed.hostname)) return undefined;
  return {
    problem: `${place}: approvals over plain http to ${parsed.host} can be read on the way, and whoever reads one can press Allow. Use https:// (or a server on this machine: 127.0.0.1, ::1, localhost), then run: hook-notify install --approve`,
  };
}

// 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine.
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host === "::1") return true;
  return isIPv4(host) && host.startsWith("127.");
}

function isTelegramEntry(entry: Pick<SinkEntry, "type" | "options">): boolean {
  return entry.type === "chat" && (entry.options as { service?: unknown }).service === telegram.id;
}

// True for a setup that asks through a Telegram bot (else through ntfy).
export function isTelegramSetup(setup: ApproveSetup): setup is TelegramSetup {
  return setup.service === telegram.id;
}

function isChannel(entry: SinkEntry): boolean {
  return isNtfyEntry(entry) || isTelegramEntry(entry);
}

function pickSink(config: Config): SinkEntry | SetupProblem {
  if (config.approveSink !== undefined) {
    const entry = config.sinks[config.approveSink];
    if (entry === undefined || !isChannel(entry) || !entry.enabled) {
      return {
        problem: `approveSink "${config.approveSink}" is not an enabled chat sink with "service": "ntfy" or "telegram".`,
      };
    }
    return entry;
  }
  const enabled = Object.values(config.sinks).filter((entry) => entry.enabled);
  const ntfys = enabled.filter((entry) => isNtfyEntry(entry));
  const found = ntfys.length > 0 ? ntfys : enabled.filter((entry) => isTelegramEntry(entry));
  const [only, ...others] = found;
  if (only === undefined) {
    return {
      problem:
        'approving from the phone needs a chat sink with "service": "ntfy" (a private topic with a token) or "telegram" (a bot token and chat id). Add one, then run: hook-notify install --approve',
    };
  }
  if (others.length > 0) {
    const names = found.map((entry) => entry.name).join(", ");
    return { problem: `several such sinks (${names}): set "approveSink" to the one to use.` };
  }
  return only;
}

// approveSeconds, or less when the hook entry's --timeout is shorter (it keeps a margin to exit).
export function waitBudget(setup: ApproveSetup, timeout: number | undefined): number {
  const waitMs = Math.min(
    setup.seconds * 1000,
    (timeout ?? Infinity) * 1000 - APPROVE_EXIT_MARGIN_MS,
  );
  if (!(waitMs >= 1000)) {
    throw new HookNotifyError(
      "CONFIG_INVALID",
      `--timeout ${timeout ?? ""} leaves no time to wait for the phone.`,
    );
  }
  return waitMs;
}
