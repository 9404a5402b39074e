// `hook-notify approve` in doctor: the setup resolves, the key is private, and the reply topic can
// be read with the sink's token (a poll of its latest message; nothing is published), and the
// request topic cannot be read without it: its buttons carry the token and the signed answers.
import { existsSync } from "node:fs";
import { readSecret, secretPath } from "../machine-key.js";
import {
  isTelegramSetup,
  resolveSetup,
  type NtfySetup,
  type TelegramSetup,
} from "../approve/setup.js";
import { callBot } from "../approve/telegram-bot.js";
import { openStream } from "../approve/stream.js";
import type { Config } from "../core/config.js";
import { withDeadline } from "../abort.js";
import type { Deps } from "../deps.js";
import { toHookNotifyError } from "../errors.js";
import { redactUrl } from "../redact.js";
import { fail, ok, type CheckResult } from "../check-result.js";

const CHECK = "approve (phone)";

// install --approve ran (a reply topic for ntfy, the key for Telegram) or the config names a sink.
export function approveInstalled(
  config: Config,
  deps: Pick<Deps, "env" | "homedir" | "platform">,
): boolean {
  return (
    config.approveReplyTopic !== undefined ||
    config.approveSink !== undefined ||
    existsSync(secretPath(deps))
  );
}
const POLL_TIMEOUT_MS = 5_000;

// Nothing to check until install --approve ran (a reply topic for ntfy, the key for Telegram) or
// the config names a sink.
export async function checkApprove(
  config: Config,
  deps: Pick<Deps, "env" | "homedir" | "platform">,
): Promise<CheckResult[]> {
  if (!approveInstalled(config, deps)) return [];
  const setup = resolveSetup(config);
  if ("problem" in setup) return [fail(CHECK, setup.problem, "hook-notify install --approve")];
  const path = secretPath(deps);
  try {
    readSecret(path, deps.platform);
  } catch (error) {
    return [fail(CHECK, toHookNotifyError(error).message, "hook-notify install --approve")];
  }
  if (isTelegramSetup(setup)) return [await checkTelegram(setup, deps)];
  const where = redactUrl(setup.root);
  let cached = 0;
  try {
    await withDeadline(POLL_TIMEOUT_MS, async (signal) => {
      const events = await openStream({
        root: setup.root,
        topic: setup.replyTopic,
        token: setup.token,
        since: "latest",
        poll: true,
        signal,
        env: deps.env,
        sinkName: setup.sinkName,
      });
      for await (const event of events) if (event.event === "message") cached++;
    });
  } catch (error) {
    const fix =
      "Check the ntfy sink's url and token: the token must be allowed to read and write the reply topic.";
    return [fail(CHECK, `reply topic on ${where}: ${toHookNotifyError(error).message}`, fix)];
  }
  const anonymous = await anonymousPoll(setup, deps);
  if (anonymous === "open") {
    return [
      fail(
        CHECK,
        `anyone can read the request topic of sinks.${setup.sinkName} on ${where} without a token: its Allow button (with the token) is theirs to press`,
        "Reserve the topic (ntfy.sh: Account → Reserved topics, access: only me) or run your server with auth-default-access: deny-all.",
      ),
    ];
  }
  return [
    ok(
      CHECK,
      `reply topic on ${where} answers with the token (${cached} cached); the request topic ${anonymous === "closed" ? "refuses anonymous readers" : "may be open (no clear answer without the token)"}; key private; approveWhen "${setup.when}", ${setup.seconds} s`,
    ),
  ];
}

// Telegram: the bot answers with its token, and no webhook takes its updates (getUpdates would
// answer 409 Conflict). getWebhookInfo reads without consuming anything.
async function checkTelegram(setup: TelegramSetup, deps: Pick<Deps, "env">): Promise<CheckResult> {
  const where = new URL(setup.api).origin;
  try {
    const info = await withDeadline(POLL_TIMEOUT_MS, (signal) =>
      callBot({ setup, signal, env: deps.env }, "getWebhookInfo", {}),
    );
    if (
      typeof (info as { url?: unknown } | null)?.url === "string" &&
      (info as { url: string }).url !== ""
    ) {
      return fail(
        CHECK,
        `sinks.${setup.sinkName}: the bot has a webhook set, so approve cannot read its button presses (getUpdates answers 409 Conflict)`,
        "Give approve a bot of its own, or delete the webhook (Bot API deleteWebhook).",
      );
    }
  } catch (error) {
    return fail(
      CHECK,
      `Telegram on ${where}: ${toHookNotifyError(error).message}`,
      "Check the bot token with @BotFather.",
    );
  }
  return ok(
    CHECK,
    `Telegram bot on ${where} answers, no webhook; presses count from chat ${setup.chatId} only; key private; approveWhen "${setup.when}", ${setup.seconds} s`,
  );
}

// A poll of the request topic without the token: "open" when the server answers it.
async function anonymousPoll(
  setup: NtfySetup,
  deps: Pick<Deps, "env">,
): Promise<"open" | "closed" | "unknown"> {
  try {
    await withDeadline(POLL_TIMEOUT_MS, async (signal) => {
      const events = await openStream({
        root: setup.root,
        topic: setup.requestTopic,
        since: "latest",
        poll: true,
        signal,
        env: deps.env,
        sinkName: setup.sinkName,
      });
      for await (const event of events) if (event.event === "message") break;
    });
    return "open";
  } catch (error) {
    return toHookNotifyError(error).code === "SINK_AUTH" ? "closed" : "unknown";
  }
}
