// Windows and WSL: a hidden Windows PowerShell shows a WinRT toast. The script is fixed; the text
// travels in environment variables and enters the toast as XML text nodes, never as source.
import type { Notification } from "../core/notification.js";
import { isWsl, findPowerShell, powerShellArgs, settleMs, windowsEnv } from "./platform.js";
import { HookNotifyError } from "../errors.js";
import { findPlace } from "../focus/place.js";
import { runProgram } from "./run-program.js";
import type { SendContext, SendReport } from "./sink.js";

/** Windows PowerShell's own AppUserModelID: registered on every install, so Windows shows it. */
export const POWERSHELL_APP_ID =
  "{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\\WindowsPowerShell\\v1.0\\powershell.exe";

/** The whole toast script; it reads HOOK_NOTIFY_TITLE, _BODY, _APP_ID and _LONG, _ASK ("1": Allow
 * and Deny buttons, or one per line of _OPTIONS, the pressed one's fixed key printed on stdout),
 * and for a click that focuses Windows Terminal, _FOCUS_SECONDS (how long it waits for the toast's
 * Activated event; absent: it does not wait) and _AGENT_PID (native Windows: the agent's
 * process, whose ancestors hold the Windows Terminal window). Both are cast to [int]. */
export const TOAST_SCRIPT = [
  "$ErrorActionPreference = 'Stop'",
  "[Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] | Out-Null",
  "[Windows.Data.Xml.Dom.XmlDocument, Windows.Data.Xml.Dom.XmlDocument, ContentType = WindowsRuntime] | Out-Null",
  "$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)",
  "$texts = $xml.GetElementsByTagName('text')",
  "$texts.Item(0).AppendChild($xml.CreateTextNode($env:HOOK_NOTIFY_TITLE)) | Out-Null",
  "$texts.Item(1).AppendChild($xml.CreateTextNode($env:HOOK_NOTIFY_BODY)) | Out-Null",
  "if ($env:HOOK_NOTIFY_LONG -eq '1') { $xml.DocumentElement.SetAttribute('duration', 'long') }",
  // approve's question (sinks/banner-actions-other.ts): Allow and Deny, or one button per line of
  // HOOK_NOTIFY_OPTIONS (a question's labels, set as attributes, never source); the arguments are
  // fixed keys; the toast leaves the notification center when the question ends.
  "$ask = $env:HOOK_NOTIFY_ASK -eq '1'",
  "$keys = @()",
  "if ($ask) {",
  "  $keys = @('hn-allow', 'hn-deny'); $labels = @('Allow', 'Deny')",
  "  if ($env:HOOK_NOTIFY_OPTIONS) {",
  '    $labels = @($env:HOOK_NOTIFY_OPTIONS -split "`n")',
  "    $keys = @(for ($i = 1; $i -le $labels.Count; $i++) { 'hn-option-' + $i })",
  "  }",
  "  $actions = $xml.CreateElement('actions')",
  "  for ($i = 0; $i -lt $keys.Count; $i++) {",
  "    $action = $xml.CreateElement('action')",
  "    $action.SetAttribute('content', $labels[$i])",
  "    $action.SetAttribute('arguments', $keys[$i])",
  "    $actions.AppendChild($action) | Out-Null",
  "  }",
  "  $xml.DocumentElement.AppendChild($actions) | Out-Null",
  "}",
  "$toast = [Windows.UI.Notifications.ToastNotification]::new($xml)",
  "if ($ask) { $toast.ExpirationTime = [DateTimeOffset]::Now.AddSeconds([int]$env:HOOK_NOTIFY_FOCUS_SECONDS) }",
  "$focus = [int]$env:HOOK_NOTIFY_FOCUS_SECONDS",
  "if ($focus -gt 0) {",
  "  Register-ObjectEvent -InputObject $toast -EventName Activated -SourceIdentifier HookNotifyActivated | Out-Null",
  "  Register-ObjectEvent -InputObject $toast -EventName Dismissed -SourceIdentifier HookNotifyDismissed | Out-Null",
  "}",
  "[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($env:HOOK_NOTIFY_APP_ID).Show($toast)",
  // A toast that times out on screen moves to the notification center, where it can still be
  // clicked: only a dismissal by the person (or the app) ends the wait before the bound.
  "$until = (Get-Date).AddSeconds($focus)",
  "while ($focus -gt 0) {",
  "  $left = [int][Math]::Ceiling(($until - (Get-Date)).TotalSeconds)",
  "  if ($left -le 0) { break }",
  "  $got = Wait-Event -Timeout $left",
  "  if (-not $got) { break }",
  "  Remove-Event -EventIdentifier $got.EventIdentifier",
  "  if ($got.SourceIdentifier -eq 'HookNotifyDismissed') {",
  "    if ([string]$got.SourceArgs[1].Reason -eq 'TimedOut') { continue }",
  "    break",
  "  }",
  "  if ($got.SourceIdentifier -eq 'HookNotifyActivated' -and $ask) {",
  "    $pressed = [string]([Windows.UI.Notifications.ToastActivatedEventArgs]$got.SourceArgs[1]).Arguments",
  "    if ($keys -contains $pressed) { [Console]::Out.WriteLine($pressed); break }",
  "    continue",
  "  }",
  "  if ($got.SourceIdentifier -eq 'HookNotifyActivated') {",
  "    $wt = 0",
  "    $id = [int]$env:HOOK_NOTIFY_AGENT_PID",
  "    for ($i = 0; $id -gt 0 -and $i -lt 32; $i++) {",
  "      $p = Get-CimInstance Win32_Process -Filter ('ProcessId=' + $id)",
  "      if (-not $p) { break }",
  "      if ($p.Name -eq 'WindowsTerminal.exe') { $wt = $id; break }",
  "      $id = [int]$p.ParentProcessId",
  "    }",
  "    if ($wt -eq 0) { $wt = [int](Get-Process -Name WindowsTerminal -ErrorAction SilentlyContinue | Where-Object { $_.MainWindowHandle -ne 0 } | Select-Object -First 1).Id }",
  "    if ($wt -gt 0) { (New-Object -ComObject WScript.Shell).AppActivate($wt) | Out-Null }",
  "    break",
  "  }",
  "}",
].join("\n");

/** The toast's click: how long the script waits for it, and the agent's pid (native Windows). */
export interface ToastFocus {
  seconds: number;
  agentPid?: number | undefined;
}

// The variables the toast script reads. Failures stay on screen longer (duration "long").
export function toastVars(
  notification: Notification,
  appId: string,
  focus?: ToastFocus,
): Record<string, string> {
  return {
    HOOK_NOTIFY_TITLE: notification.title,
    HOOK_NOTIFY_BODY: notification.body,
    HOOK_NOTIFY_APP_ID: appId,
    HOOK_NOTIFY_LONG: notification.failure ? "1" : "0",
    ...(focus ? { HOOK_NOTIFY_FOCUS_SECONDS: String(Math.round(focus.seconds)) } : {}),
    ...(focus?.agentPid ? { HOOK_NOTIFY_AGENT_PID: String(focus.agentPid) } : {}),
  };
}

// Whether the toast waits for its click to bring Windows Terminal back, and why not: only in
// the worker (it is started detached there and ends with the toast or the bound), only when the
// agent runs in Windows Terminal.
export function toastFocus(
  ctx: SendContext,
  seconds: number,
): { focus: ToastFocus; action: string } | { action: string } {
  const { env, platform, ppid } = ctx.deps;
  if (seconds === 0) return { action: "none: focusSeconds is 0" };
  if (!ctx.deps.worker || ctx.wait)
    return {
      action:
        "none: only the background worker listens for a click (the hook and test never wait for one)",
    };
  if (!findPlace(env, platform).windowsTerminal)
    return { action: "none: the agent does not run in Windows Terminal (WT_SESSION is not set)" };
  const agentPid = platform === "win32" ? ppid : undefined;
  return { focus: { seconds, agentPid }, action: "click: brings Windows Terminal to the front" };
}

// Starts the toast hidden; on the hook path it is watched briefly and then left to finish.
export async function notifyWindows(
  notification: Notification,
  appId: string,
  ctx: SendContext,
  focusSeconds: number,
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
  const click = toastFocus(ctx, focusSeconds);
  const focus = "focus" in click ? click.focus : undefined;
  const env = windowsEnv(ctx.deps.env, toastVars(notification, appId, focus), wsl);
  const result = await runProgram(powershell, powerShellArgs(TOAST_SCRIPT), {
    env,
    signal: ctx.signal,
    wait: ctx.wait,
    sinkName: ctx.sinkName,
    settleMs: settleMs("desktop", ctx.deps.env),
    fix: "Run hook-notify doctor; check Settings → System → Notifications and Focus assist.",
  });
  return { started: result === "running", via: "powershell.exe", action: click.action };
}
