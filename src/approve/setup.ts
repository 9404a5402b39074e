// Which ntfy server, topics and token `hook-notify approve` uses: all from the user's config.
import { APPROVE_EXIT_MARGIN_MS } from "../core/defaults.js";
import type { Config } from "../core/config.js";
import { isNtfyEntry, resolveNtfy, type NtfyOptions } from "../sinks/chat/ntfy.js";
import { HookNotifyError } from "../errors.js";
import { splitTopicUrl } from "../sinks/chat/format-ntfy.js";

/** Everything one permission round trip needs from the config. */
export interface ApproveSetup {
  /** The chat sink's name in the config (for the log). */
  sinkName: string;
  /** The ntfy server root, ending in "/": JSON is published here. */
  root: string;
  /** Where the request goes: the sink's topic, which the phone subscribes to. */
  requestTopic: string;
  /** Where the phone's buttons post the answer; random per install, secret. */
  replyTopic: string;
  /** The ntfy access token (required): sent on the publish, the subscribe and in the buttons. */
  token: string;
  seconds: number;
  when: "away" | "always";
}

/** Why approve cannot ask the phone, as a sentence with the next step. */
export interface SetupProblem {
  problem: string;
}

// The ntfy chat sink approve publishes through: approveSink, else the only enabled one.
export function resolveSetup(config: Config): ApproveSetup | SetupProblem {
  const sink = pickSink(config);
  if ("problem" in sink) return sink;
  const options = resolveNtfy(sink.options);
  let split: { root: string; topic: string };
  try {
    split = splitTopicUrl(options.url);
  } catch (error) {
    return { problem: `sinks.${sink.name}.url: ${(error as Error).message}` };
  }
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
    sinkName: sink.name,
    root: split.root,
    requestTopic: split.topic,
    replyTopic,
    token: options.token,
    seconds: config.approveSeconds,
    when: config.approveWhen,
  };
}

function pickSink(config: Config): { name: string; options: NtfyOptions } | SetupProblem {
  const isNtfy = isNtfyEntry;
  if (config.approveSink !== undefined) {
    const entry = config.sinks[config.approveSink];
    if (entry === undefined || !isNtfy(entry) || !entry.enabled) {
      return {
        problem: `approveSink "${config.approveSink}" is not an enabled chat sink with "service": "ntfy".`,
      };
    }
    return { name: entry.name, options: entry.options as NtfyOptions };
  }
  const found = Object.values(config.sinks).filter((entry) => entry.enabled && isNtfy(entry));
  const [only, ...others] = found;
  if (only === undefined) {
    return {
      problem:
        'approving from the phone needs a chat sink with "service": "ntfy" (a private topic with a token). Add one, then run: hook-notify install --approve',
    };
  }
  if (others.length > 0) {
    const names = found.map((entry) => entry.name).join(", ");
    return { problem: `several ntfy sinks (${names}): set "approveSink" to the one to use.` };
  }
  return { name: only.name, options: only.options as NtfyOptions };
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
