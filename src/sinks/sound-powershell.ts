// Windows PowerShell plays the file named in HOOK_NOTIFY_SOUND; on WSL that is a Windows path.
import { HookNotifyError } from "../errors.js";
import { findProgram } from "./find-program.js";
import { windowsEnv } from "./platform.js";
import type { SendContext } from "./sink.js";

// PowerShell reads the file from HOOK_NOTIFY_SOUND; on WSL it must be a Windows path
// (wslpath -w) and listed in WSLENV to cross into the Windows process.
export async function powerShellEnv(
  file: string,
  wsl: boolean,
  ctx: SendContext,
): Promise<Record<string, string | undefined>> {
  const path = wsl ? await toWindowsPath(file, ctx) : file;
  return windowsEnv(ctx.deps.env, { HOOK_NOTIFY_SOUND: path }, wsl);
}

async function toWindowsPath(file: string, ctx: SendContext): Promise<string> {
  const wslpath = findProgram("wslpath", ctx.deps.env, ctx.deps.platform) ?? "/usr/bin/wslpath";
  const { execFile } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    execFile(
      wslpath,
      ["-w", file],
      { env: ctx.deps.env, signal: ctx.signal, timeout: 2000 },
      (error, stdout) => {
        const converted = stdout.trim();
        if (!error && converted) {
          resolve(converted);
          return;
        }
        reject(
          new HookNotifyError(
            "SINK_FAILED",
            `${ctx.sinkName}: wslpath -w could not convert ${file} for Windows (${error?.message.split("\n")[0] ?? "no output"}).`,
            { sink: ctx.sinkName, cause: error, retryable: false },
          ),
        );
      },
    );
  });
}
