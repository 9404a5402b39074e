// approve's Allow and Deny on the macOS and Windows banners (banner-actions.ts has Linux's).
// macOS: node-notifier's vendored terminal-notifier (its alerter-based build takes `-actions` and,
// with `-json`, prints how the banner ended: {"activationType":"actionClicked",
// "activationValue":"Allow"}); the question waits in it up to `-timeout`, and a withdrawn one is
// taken from Notification Center with `-remove <group>`. Windows and WSL: the toast script of
// desktop-windows.ts with HOOK_NOTIFY_ASK=1: two buttons whose arguments are fixed keys, the
// pressed one printed on stdout. Only the two labels / keys count; argument arrays and
// environment variables only. Proven by simulation on Linux (test/e2e/approve-banner-platforms),
// not run on a Mac or Windows.
import { randomBytes } from "node:crypto";
import { withDeadline } from "../abort.js";
import {
  abortOf,
  BANNER_KEYS,
  CLOSE_MS,
  WITHDRAWN,
  type BannerAnswer,
  type BannerQuestion,
} from "./banner-answer.js";
import { asValue, macRoute } from "./desktop-macos.js";
import { POWERSHELL_APP_ID, TOAST_SCRIPT } from "./desktop-windows.js";
import { findPowerShell, isWsl, powerShellArgs, windowsEnv } from "./platform.js";
import { runProgram } from "./run-program.js";

/** terminal-notifier's action labels, and the answer each gives. */
const MAC_LABELS = { Allow: "allow", Deny: "deny" } as const;

// terminal-notifier with Allow and Deny, waited for up to the question's seconds.
export async function askOnMac(question: BannerQuestion): Promise<BannerAnswer> {
  const { deps, signal } = question;
  const route = macRoute(deps);
  if (route.program !== "terminal-notifier") {
    return { none: `no buttons on macOS here: ${route.why} (osascript banners take none)` };
  }
  const group = `hook-notify-approve-${randomBytes(6).toString("hex")}`;
  const args = [
    ...["-title", asValue(question.title), "-message", asValue(question.body || question.title)],
    ...["-actions", "Allow,Deny", "-group", group],
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
  return macAnswer(stdout);
}

// terminal-notifier's JSON: only an actionClicked with one of the two labels answers.
export function macAnswer(stdout: string): BannerAnswer {
  let said: { activationType?: unknown; activationValue?: unknown };
  try {
    said = JSON.parse(stdout) as typeof said;
  } catch {
    return { none: "terminal-notifier said nothing readable" };
  }
  const value = said.activationValue;
  if (
    said.activationType === "actionClicked" &&
    typeof value === "string" &&
    Object.hasOwn(MAC_LABELS, value)
  ) {
    return { answer: MAC_LABELS[value as keyof typeof MAC_LABELS], via: "terminal-notifier" };
  }
  const type = typeof said.activationType === "string" ? said.activationType : "unknown";
  return { none: `the banner ended without a button (${type.slice(0, 40)})` };
}

// The toast with Allow and Deny; the script prints the pressed key, and ends with the question.
export async function askOnWindows(question: BannerQuestion): Promise<BannerAnswer> {
  const { deps, signal } = question;
  const powershell = findPowerShell(deps);
  if (!powershell) return { none: "powershell.exe not found" };
  const vars = {
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
  const key = stdout.split(/\r?\n/).find((line) => Object.hasOwn(BANNER_KEYS, line));
  if (key === undefined) return { none: "the toast ended without a button" };
  return { answer: BANNER_KEYS[key as keyof typeof BANNER_KEYS], via: "powershell.exe" };
}
