// A real zombie for the tests that need one (Linux): a child of a shell that then becomes
// `sleep` by exec, which never reaps it. Its pid still answers kill(pid, 0).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { onTestFinished } from "vitest";

export function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${String(pid)}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** The pid of a process that has exited and that its parent never reaps (until the test ends). */
export async function zombie(): Promise<number> {
  const parent = spawn("sh", ["-c", 'sleep 0 & echo "$!"; exec sleep 120'], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  onTestFinished(() => {
    parent.kill("SIGKILL");
  });
  const pid = await new Promise<number>((resolve, reject) => {
    let text = "";
    parent.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("\n")) resolve(Number(text.trim()));
    });
    parent.on("error", reject);
  });
  for (let i = 0; i < 200 && !isZombie(pid); i++) await new Promise((r) => setTimeout(r, 25));
  if (!isZombie(pid)) throw new Error(`pid ${String(pid)} did not become a zombie`);
  return pid;
}
