// The banner first (issue 41): in the worker a player starts once the banner's notify-send is done,
// so that on a small machine the notifier does not share its start with the player's.
import { appendFileSync, chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { dispatch } from "../../src/delivery/dispatch.js";
import { route } from "../../src/pipeline/route.js";
import { outboxEnv } from "../helpers/outbox-env.js";
import { sampleNotification } from "../helpers/sample-notification.js";
import { tempDir } from "../helpers/sink-harness.js";

// A shell program that logs its start (and, for notify-send, its end after a short sleep).
function program(dir: string, name: string, log: string, body: string): void {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${name} start" >> "${log}"\n${body}\n`);
  chmodSync(file, 0o755);
}

describe.runIf(process.platform === "linux")("the worker's local sinks", () => {
  it("starts the player after the banner's notify-send has exited", async () => {
    const dir = tempDir("dispatch-order");
    const log = join(dir, "calls");
    appendFileSync(log, "");
    program(dir, "notify-send", log, `sleep 0.02\necho "notify-send end" >> "${log}"\necho 3`);
    program(dir, "aplay", log, "exit 0");
    const sinks = { banner: { type: "desktop" }, bell: { type: "sound" } };
    const box = await outboxEnv(sinks);
    const env = { ...box.env, PATH: dir, DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/bus" };
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
    await expect
      .poll(() => readFileSync(log, "utf8").trim().split("\n"))
      .toEqual(["notify-send start", "notify-send end", "aplay start"]);
  });
});
