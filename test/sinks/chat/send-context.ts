// The SendContext a chat test sends with: no proxy variables, so requests go to the local server.
import { PassThrough } from "node:stream";
import type { Deps } from "../../../src/deps.js";
import { textInput } from "../../../src/input-source.js";
import type { SendContext } from "../../../src/sinks/sink.js";

export function sendContext(): SendContext {
  const deps: Deps = {
    stdin: textInput(""),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    platform: process.platform,
    cwd: process.cwd(),
    homedir: "/nonexistent",
    now: Date.now,
  };
  return { signal: AbortSignal.timeout(5000), deps, sinkName: "phone", wait: true };
}

// Resolves with the sink's result, or with what it threw.
export function settle(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => value,
    (error: unknown) => error,
  );
}
