// `hook-notify approve` against the local Bot API (telegram-server.ts), or a local ntfy: a home
// whose config sends approvals to it, the built binary run as Claude Code runs it, and the approve log lines.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, runBin, tempHome, type BinResult, type TempHome } from "./run-bin.js";
import type { FakeTelegram, TelegramMessage } from "./telegram-server.js";

export const TOKEN = "123456789:AAtelegramApproveTestToken_0123456";
export const CHAT = 424242;
export const KEY = "b".repeat(64);

// A home with the bot as the phone, approveWhen "always", and a known approve key.
export function setUpTelegram(bot: FakeTelegram, config: Record<string, unknown> = {}): TempHome {
  const home = tempHome();
  home.writeConfig({
    sinks: {
      phone: { type: "chat", service: "telegram", botToken: TOKEN, chatId: CHAT, apiUrl: bot.url },
    },
    approveWhen: "always",
    approveSeconds: 30,
    ...config,
  });
  writeApproveKey(home);
  return home;
}

// The machine's approve key, as install --approve leaves it (mode 600).
export function writeApproveKey(home: TempHome, key = KEY): void {
  const stateDir = join(home.dir, "state", "hook-notify");
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(join(stateDir, "approve.key"), `${key}\n`, { mode: 0o600 });
  chmodSync(join(stateDir, "approve.key"), 0o600);
}

// `approve` with a PermissionRequest on stdin (the captured Claude Code one unless given).
export function approve(
  home: TempHome,
  args: string[] = [],
  input = fixture("claude-code/PermissionRequest.json"),
): Promise<BinResult> {
  return runBin(["approve", ...args], { input, env: home.env, killAfterMs: 60_000 });
}

export interface Approval {
  request: string;
  result: string;
  fallback?: string;
  rejected: { reason: string; message: string }[];
  [key: string]: unknown;
}

// The approve log lines, oldest first.
export function approvals(
  home: TempHome,
): (Approval & { error?: { code: string; message: string } })[] {
  return home
    .logLines()
    .filter((line) => line.event === "PermissionRequest")
    .map((line) => ({
      ...(line.approval as Approval),
      ...(line.error ? { error: line.error as { code: string; message: string } } : {}),
    }));
}

export const reasons = (approval: Approval | undefined) =>
  approval?.rejected.map((r) => r.reason) ?? [];

// What a stranger and a forger would do to a question's `message`: press `label` from another
// chat, and send the first button's data with a made-up MAC from the configured one.
export function pressAsStrangers(bot: FakeTelegram, message: TelegramMessage, label: string): void {
  bot.press(message, label, { chatId: 777, userId: 777 });
  const first = message.reply_markup!.inline_keyboard.flat()[0]!.callback_data!;
  bot.pressData(`${first.slice(0, -20)}${"A".repeat(20)}`, CHAT, message.message_id);
}

/** The reply topic setUpNtfyPhone's config names. */
export const NTFY_REPLY_TOPIC = "hn-reply-approvetest0123456789ab";

// A home whose phone is the local ntfy at `url` (topic "requests", access `token`), approveWhen
// "always", 10 s to answer, and a known approve key.
export function setUpNtfyPhone(url: string, token: string): TempHome {
  const home = tempHome();
  home.writeConfig({
    sinks: { phone: { type: "chat", service: "ntfy", url: `${url}/requests`, token } },
    approveReplyTopic: NTFY_REPLY_TOPIC,
    approveWhen: "always",
    approveSeconds: 10,
  });
  writeApproveKey(home);
  return home;
}
