// The banner first (issue 41): in the worker a player starts once the daemon answered the banner's
// Notify, so that on a small machine the banner does not share its moment with the player's start.
import { appendFileSync, chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { dispatch } from "../../src/delivery/dispatch.js";
import { route } from "../../src/pipeline/route.js";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";
import { tempDir } from "../helpers/sink-harness.js";

// A shell program that logs its start.
function program(dir: string, name: string, log: string, body: string): void {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${name} start" >> "${log}"\n${body}\n`);
  chmodSync(file, 0o755);
}

describe.runIf(process.platform === "linux")("the worker's local sinks", () => {
  it("starts the player after the daemon answered the banner's Notify", async () => {
    const dir = tempDir("dispatch-order");
    const log = join(dir, "calls");
    appendFileSync(log, "");
    program(dir, "aplay", log, "exit 0");
    // The fake daemon records the call and answers it together, 300 ms after it arrived.
    const bus = await fakeNotificationBus({ delayMs: 300 });
    const sinks = { banner: { type: "desktop" }, bell: { type: "sound" } };
    const box = await outboxEnv(sinks);
    const env = { ...box.env, PATH: dir, ...bus.env };
    // Whenever the player's start is first seen, the banner was already answered.
    let answeredAtStart: number | undefined;
    const watching = expect
      .poll(
        () => {
          const started = readFileSync(log, "utf8").includes("aplay start");
          if (started) answeredAtStart ??= bus.calls().length;
          return started;
        },
        { interval: 5, timeout: 20_000 },
      )
      .toBe(true);
    const deps = { ...box.deps, env, platform: "linux" as const, worker: true };
    const { deliveries } = route(sampleNotification(), validateConfig({ sinks }, {}).value);
    const outcomes = await dispatch(deliveries, {
      deps,
      budgetMs: 8_000,
      wait: false,
      secrets: [],
      whenQueued: "this-round",
      // The bound is the player's other way out; a loaded machine must not reach it in this test.
      audibleAfterMs: 60_000,
    });
    expect(outcomes).toMatchObject([
      { sink: "banner", ok: true },
      { sink: "bell", ok: true },
    ]);
    await watching;
    expect(answeredAtStart).toBe(1);
  });
});
