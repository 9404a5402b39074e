// Waits on the reply topic for the one verified answer to this request. Anything else on the
// topic (replays, answers to other requests, forged or malformed bodies) is noted and ignored.
import type { HookNotifyError } from "../errors.js";
import { toHookNotifyError } from "../errors.js";
import { verifyAnswer, type Decision, type AnswerVerdict } from "./answer.js";
import type { NtfySetup } from "./setup.js";
import { openStream, type NtfyEvent } from "./stream.js";

/** A message on the reply topic that was not accepted, and why. */
export interface Rejected {
  reason: Extract<AnswerVerdict, { ok: false }>["reason"];
  message: string;
}

export type WaitResult =
  | { answer: Decision; messageId: string; at: number }
  | { none: "timeout" | "stream-closed" }
  | { none: "error"; error: HookNotifyError };

/** What the wait needs: the stream already open, and how to open it again. */
export interface WaitInput {
  setup: NtfySetup;
  requestId: string;
  secret: Buffer;
  stream: AsyncIterable<NtfyEvent>;
  /** `since=` for a reconnect: the request's Unix second. */
  since: string;
  signal: AbortSignal;
  env: Readonly<Record<string, string | undefined>>;
  now: () => number;
  onRejected: (rejected: Rejected) => void;
}

const RECONNECTS = 2;
const RECONNECT_PAUSE_MS = 500;

// Resolves at the first verified answer, when the signal aborts, or when the stream keeps ending.
export async function waitForAnswer(input: WaitInput): Promise<WaitResult> {
  let stream = input.stream;
  let since = input.since;
  for (let attempt = 0; ; attempt++) {
    for await (const event of stream) {
      if (event.event !== "message" || event.topic !== input.setup.replyTopic) continue;
      since = event.id;
      const verdict = verifyAnswer(input.secret, input.requestId, event.message ?? "");
      if (verdict.ok) return { answer: verdict.decision, messageId: event.id, at: input.now() };
      input.onRejected({ reason: verdict.reason, message: event.id });
    }
    if (hasEnded(input.signal)) return { none: "timeout" };
    if (attempt >= RECONNECTS) return { none: "stream-closed" };
    await pause(RECONNECT_PAUSE_MS, input.signal);
    if (hasEnded(input.signal)) return { none: "timeout" };
    try {
      stream = await openStream({
        root: input.setup.root,
        topic: input.setup.replyTopic,
        token: input.setup.token,
        since,
        signal: input.signal,
        env: input.env,
        sinkName: input.setup.sinkName,
      });
    } catch (error) {
      if (hasEnded(input.signal)) return { none: "timeout" };
      return { none: "error", error: toHookNotifyError(error) };
    }
  }
}

// A function, not a property read: the signal changes while we await, which narrowing cannot see.
function hasEnded(signal: AbortSignal): boolean {
  return signal.aborted;
}

// Resolves after `ms`, or at once when the signal aborts.
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
