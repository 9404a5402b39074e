// The local fake of the service (scripts/fake-service/server.mjs) for one test, closed after it,
// and what a test needs around it: a state folder sweep for leaked keys.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { onTestFinished } from "vitest";
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
      if (statSync(path).isDirectory()) walk(path);
      else hits.push(...findCanaries(path, readFileSync(path, "latin1"), needles));
    }
  };
  walk(dir);
  return hits;
}
