// Waiting on real processes in e2e tests, and reading what they left in a temp home's state.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startHttpServer, type TestHttpServer } from "./http-server.js";
import { tempHome, type TempHome } from "./run-bin.js";

/** Polls `check` until it holds; generous by default (CI shares 2 cores with CPU burners). */
export async function waitUntil(
  check: () => boolean,
  what = "the expected state",
  timeoutMs = 60_000,
): Promise<void> {
  for (const end = Date.now() + timeoutMs; !check();) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Every regular file under the home's state folder as text (a socket or FIFO is skipped), but
 * those named in `except` (e.g. the machine key itself). A live worker may remove a file (its
 * socket, an entry it delivered) between the listing and the look: that one is skipped. */
export function stateFileTexts(home: TempHome, except: readonly string[] = []): string[] {
  const texts: string[] = [];
  const gone = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === "ENOENT";
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      if (gone(error)) return;
      throw error;
    }
    for (const name of names) {
      const path = join(dir, name);
      try {
        const info = statSync(path);
        if (info.isDirectory()) walk(path);
        else if (info.isFile() && !except.includes(name)) texts.push(readFileSync(path, "latin1"));
      } catch (error) {
        if (!gone(error)) throw error;
      }
    }
  };
  walk(join(home.dir, "state"));
  return texts;
}

/** Waits (up to 30 s) until the outbox worker a hook started has let go of its lock: it may still
 * be tidying up when a test's assertions are done, and the home is removed after. */
export async function workerDone(home: TempHome): Promise<void> {
  const lock = join(home.dir, "state", "hook-notify", "outbox", "worker.lock");
  for (let i = 0; i < 300 && existsSync(lock); i++) await new Promise((r) => setTimeout(r, 100));
}

/** A temp home whose one sink is a webhook to a local server (no `events`: the default events). */
export async function webhookHome(): Promise<{ server: TestHttpServer; home: TempHome }> {
  const server = await startHttpServer([{ status: 200 }]);
  const home = tempHome();
  home.writeConfig({ sinks: { hook: { type: "webhook", url: `${server.url}/agent` } } });
  return { server, home };
}
