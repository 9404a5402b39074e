// The local fake of the service (scripts/fake-service/server.mjs) for one test, closed after it,
// and what a test needs around it: a state folder sweep for leaked keys.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect, onTestFinished } from "vitest";
import {
  startFakeService as start,
  type FakeOptions,
  type FakeService,
} from "../../scripts/fake-service/server.mjs";
import { findCanaries, needlesFor, type CanaryHit } from "./canary.js";

export type { FakeService } from "../../scripts/fake-service/server.mjs";

// A fake on 127.0.0.1:0 that is torn down (hanging requests included) when the test ends.
export async function startFakeService(options: FakeOptions = {}): Promise<FakeService> {
  const fake = await start(options);
  onTestFinished(() => fake.close());
  return fake;
}

// Every file under `dir` and every text given, searched for the secret in all its encodings.
export function leaksOf(secret: string, dir: string, texts: Record<string, string>): CanaryHit[] {
  const needles = needlesFor(secret);
  const hits: CanaryHit[] = [];
  for (const [where, text] of Object.entries(texts))
    hits.push(...findCanaries(where, text, needles));
  const walk = (folder: string): void => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const info = statSync(path, { throwIfNoEntry: false });
      if (info?.isDirectory()) walk(path);
      else if (info) hits.push(...findCanaries(path, readFileSync(path, "latin1"), needles));
    }
  };
  walk(dir);
  return hits;
}

// Waits until the background worker of a temp HOME has let go (its lock is gone), so that the
// test reads settled files and its cleanup does not race the worker's last writes.
export async function workerDone(home: string): Promise<void> {
  const lock = join(home, "state", "hook-notify", "outbox", "worker.lock");
  await expect.poll(() => existsSync(lock), { timeout: 30_000, interval: 200 }).toBe(false);
}
