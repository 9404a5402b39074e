// approve's Allow and Deny (or a question's options) on the macOS and Windows banners
// (banner-actions.ts has Linux's).
// macOS: node-notifier's vendored terminal-notifier (its alerter-based build takes `-actions` and,
// with `-json`, prints how the banner ended: {"activationType":"actionClicked",
// "activationValue":"Allow"}); the question waits in it up to `-timeout`, and a withdrawn one is
// taken from Notification Center with `-remove <group>`. Windows and WSL: the toast script of
// desktop-windows.ts with HOOK_NOTIFY_ASK=1: buttons whose arguments are fixed keys (a question's
// labels, inert, in HOOK_NOTIFY_OPTIONS, one a line), the pressed one printed on stdout. Only the
// labels / keys this banner offered count; argument arrays and environment variables only. Proven by simulation on Linux (test/e2e/approve-banner-platforms),
// not run on a Mac or Windows.
import { randomBytes } from "node:crypto";
import { withDeadline } from "../abort.js";
import {
  abortOf,
  answerOfKey,
  BANNER_ROOM,
  bannerButtons,
  CLOSE_MS,
  WITHDRAWN,
  type BannerAnswer,
  type BannerButton,
  type BannerQuestion,
} from "./banner-answer.js";
import { asValue, macRoute } from "./desktop-macos.js";
import { POWERSHELL_APP_ID, TOAST_SCRIPT } from "./desktop-windows.js";
import { findPowerShell, isWsl, powerShellArgs, windowsEnv } from "./platform.js";
import { runProgram } from "./run-program.js";

// terminal-notifier with Allow and Deny (or the options), waited for up to the question's seconds.
export async function askOnMac(question: BannerQuestion): Promise<BannerAnswer> {
  const { deps, signal } = question;
  const route = macRoute(deps);
  if (route.program !== "terminal-notifier") {
    return { none: `no buttons on macOS here: ${route.why} (osascript banners take none)` };
  }
  // -actions is a comma-separated list: a comma in a label would split it.
  const buttons = bannerButtons(question, BANNER_ROOM.darwin, /,/g);
  if ("none" in buttons) return buttons;
  const group = `hook-notify-approve-${randomBytes(6).toString("hex")}`;
  const args = [
    ...["-title", asValue(question.title), "-message", asValue(question.body || question.title)],
    ...["-actions", buttons.map((button) => button.label).join(","), "-group", group],
    ...["-timeout", String(Math.max(1, Math.round(question.seconds))), "-json"],
  ];
  let stdout = "";
  const run = runProgram(route.path, args, {
    env: deps.env,
    signal,
    wait: true,
    sinkName: "banner",
    settleMs: 0,
    onOutput: (text) => (stdout = text),
  }).then(
    () => "exited" as const,
    (error: unknown) => error as Error,
  );
  const ended = await Promise.race([run, abortOf(signal)]);
  if (ended === undefined || signal.aborted) {
    const removed = await withDeadline(CLOSE_MS, (timer) =>
      runProgram(route.path, ["-remove", group], {
        env: deps.env,
        signal: timer,
        wait: true,
        sinkName: "banner",
        settleMs: 0,
      }),
    ).then(
      () => `removed from Notification Center`,
      (error: unknown) => `not removed: ${(error as Error).message}`,
    );
    return { none: `${WITHDRAWN}: ${removed}` };
  }
  if (ended instanceof Error) return { none: ended.message };
  return macAnswer(stdout, buttons);
}

// terminal-notifier's JSON: only an actionClicked with one of the offered labels answers.
export function macAnswer(stdout: string, buttons: readonly BannerButton[]): BannerAnswer {
  let said: { activationType?: unknown; activationValue?: unknown };
  try {
    said = JSON.parse(stdout) as typeof said;
  } catch {
    return { none: "terminal-notifier said nothing readable" };
  }
  const value = said.activationValue;
  const pressed = buttons.find((button) => button.label === value);
  if (said.activationType === "actionClicked" && pressed !== undefined) {
    const answer = answerOfKey(buttons, pressed.key, "terminal-notifier");
    if (answer !== undefined) return answer;
  }
  const type = typeof said.activationType === "string" ? said.activationType : "unknown";
  return { none: `the banner ended without a button (${type.slice(0, 40)})` };
}

// The toast with Allow and Deny (or the options); the script prints the pressed key, and ends with
// the question.
export async function askOnWindows(question: BannerQuestion): Promise<BannerAnswer> {
  const { deps, signal } = question;
  const powershell = findPowerShell(deps);
  if (!powershell) return { none: "powershell.exe not found" };
  const buttons = bannerButtons(question, BANNER_ROOM.windows);
  if ("none" in buttons) return buttons;
  const options =
    question.options === undefined ? {} : { HOOK_NOTIFY_OPTIONS: labelLines(buttons) };
  const vars = {
    ...options,
    HOOK_NOTIFY_TITLE: question.title,
    HOOK_NOTIFY_BODY: question.body,
    HOOK_NOTIFY_APP_ID: POWERSHELL_APP_ID,
    HOOK_NOTIFY_LONG: "1",
    HOOK_NOTIFY_ASK: "1",
    HOOK_NOTIFY_FOCUS_SECONDS: String(Math.max(1, Math.round(question.seconds))),
  };
  let stdout = "";
  try {
    await runProgram(powershell, powerShellArgs(TOAST_SCRIPT), {
      env: windowsEnv(deps.env, vars, isWsl(deps)),
      signal,
      wait: true,
      sinkName: "banner",
      settleMs: 0,
      onOutput: (text) => (stdout = text),
    });
  } catch (error) {
    if (signal.aborted) return { none: `${WITHDRAWN}: the toast's script was stopped` };
    return { none: (error as Error).message };
  }
  for (const line of stdout.split(/\r?\n/)) {
    const answer = answerOfKey(buttons, line, "powershell.exe");
    if (answer !== undefined) return answer;
  }
  return { none: "the toast ended without a button" };
}

// The options' labels, one a line (inert labels hold no line break); the script numbers them.
function labelLines(buttons: readonly BannerButton[]): string {
  return buttons.map((button) => button.label).join("\n");
}
