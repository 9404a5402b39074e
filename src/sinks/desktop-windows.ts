// Windows and WSL: a hidden Windows PowerShell shows a WinRT toast. The script is fixed; the text
// travels in environment variables and enters the toast as XML text nodes, never as source.
import type { Notification } from "../core/notification.js";
import { isWsl, findPowerShell, powerShellArgs, settleMs, windowsEnv } from "./platform.js";
import { HookNotifyError } from "../errors.js";
import { runProgram } from "./run-program.js";
import type { SendContext, SendReport } from "./sink.js";

/** Windows PowerShell's own AppUserModelID: registered on every install, so Windows shows it. */
export const POWERSHELL_APP_ID =
  "{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe";

/** The whole toast script; it reads HOOK_NOTIFY_TITLE, _BODY, _APP_ID and _LONG. */
export const TOAST_SCRIPT = [
  "$ErrorActionPreference = 'Stop'",
  "[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null",
  "[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] | Out-Null",
  "$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)",
  "$texts = $xml.GetElementsByTagName('text')",
  "$texts.Item(0).AppendChild($xml.CreateTextNode($env:HOOK_NOTIFY_TITLE)) | Out-Null",
  "$texts.Item(1).AppendChild($xml.CreateTextNode($env:HOOK_NOTIFY_BODY)) | Out-Null",
  "if ($env:HOOK_NOTIFY_LONG -eq '1') { $xml.DocumentElement.SetAttribute('duration', 'long') }",
  "$toast = [Windows.UI.Notifications.ToastNotification]::new($xml)",
  "[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($env:HOOK_NOTIFY_APP_ID).Show($toast)",
].join("\n");

// The variables the toast script reads. Failures stay on screen longer (duration "long").
export function toastVars(notification: Notification, appId: string): Record<string, string> {
  return {
    HOOK_NOTIFY_TITLE: notification.title,
    HOOK_NOTIFY_BODY: notification.body,
    HOOK_NOTIFY_APP_ID: appId,
    HOOK_NOTIFY_LONG: notification.failure ? "1" : "0",
  };
}

// Starts the toast hidden; on the hook path it is watched briefly and then left to finish.
export async function notifyWindows(
  notification: Notification,
  appId: string,
  ctx: SendContext,
): Promise<SendReport> {
  const powershell = findPowerShell(ctx.deps);
  const wsl = isWsl(ctx.deps);
  if (!powershell) {
    const why = wsl
      ? "powershell.exe is not reachable from WSL (is Windows interop off in /etc/wsl.conf?)"
      : "powershell.exe not found (it ships with Windows in System32\\WindowsPowerShell\\v1.0)";
    throw new HookNotifyError(
      "SINK_UNAVAILABLE",
      `${ctx.sinkName}: ${why}. Run hook-notify doctor.`,
      {
        sink: ctx.sinkName,
        retryable: false,
      },
    );
  }
  const env = windowsEnv(ctx.deps.env, toastVars(notification, appId), wsl);
  const result = await runProgram(powershell, powerShellArgs(TOAST_SCRIPT), {
    env,
    signal: ctx.signal,
    wait: ctx.wait,
    sinkName: ctx.sinkName,
    settleMs: settleMs("desktop", ctx.deps.env),
    fix: "Run hook-notify doctor; check Settings → System → Notifications and Focus assist.",
  });
  return { started: result === "running", via: "powershell.exe" };
}
