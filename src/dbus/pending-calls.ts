// The calls that wait for their reply, by serial: each settles once, by its reply (matched by
// REPLY_SERIAL), its timeout, its AbortSignal, or the connection's end, and then frees its timer
// and its abort listener.
import { HookNotifyError } from "../errors.js";
import { inertText } from "../shown-text.js";
import { MessageType, type Message } from "./message.js";

interface Waiter {
  member: string;
  resolve: (reply: Message) => void;
  reject: (error: HookNotifyError) => void;
  cleanup: () => void;
}

export class PendingCalls {
  private readonly waiters = new Map<number, Waiter>();

  get size(): number {
    return this.waiters.size;
  }

  /** Waits for the reply to `serial`; `afterSettle` runs once it settled, however. */
  wait(
    serial: number,
    member: string,
    options: { signal?: AbortSignal | undefined; timeoutMs: number },
    afterSettle: () => void,
  ): Promise<Message> {
    return new Promise<Message>((resolve, reject) => {
      const { signal, timeoutMs } = options;
      const onAbort = (): void => {
        this.fail(
          serial,
          new HookNotifyError("SINK_FAILED", `D-Bus ${member}: ${abortText(signal)}`),
        );
      };
      const timer = setTimeout(() => {
        this.fail(
          serial,
          new HookNotifyError("SINK_FAILED", `D-Bus ${member}: no answer in ${timeoutMs} ms`),
        );
      }, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      const cleanup = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        afterSettle();
      };
      this.waiters.set(serial, { member, resolve, reject, cleanup });
      if (signal?.aborted) onAbort();
    });
  }

  /** Settles the call `reply` answers: a method return resolves, an error rejects. */
  settle(reply: Message): void {
    const waiter = this.take(reply.replySerial);
    if (!waiter) return;
    if (reply.type === MessageType.return) waiter.resolve(reply);
    else waiter.reject(replyError(waiter.member, reply));
  }

  /** Rejects one call. */
  fail(serial: number, error: HookNotifyError): void {
    this.take(serial)?.reject(error);
  }

  /** Rejects every call (the connection ended). */
  failAll(error: HookNotifyError): void {
    for (const serial of [...this.waiters.keys()]) this.fail(serial, error);
  }

  private take(serial: number | undefined): Waiter | undefined {
    const waiter = serial === undefined ? undefined : this.waiters.get(serial);
    if (!waiter || serial === undefined) return undefined;
    this.waiters.delete(serial);
    waiter.cleanup();
    return waiter;
  }
}

// "org.freedesktop.DBus.Error.ServiceUnknown: The name is not activatable", one inert line.
function replyError(member: string, reply: Message): HookNotifyError {
  const name = reply.errorName ?? "an error without a name";
  const detail = typeof reply.body[0] === "string" ? `: ${reply.body[0]}` : "";
  const text = inertText(`${name}${detail}`, "line").slice(0, 300);
  return new HookNotifyError("SINK_FAILED", `D-Bus ${member} answered ${text}`, {
    dbusError: name,
  });
}

function abortText(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return `aborted (${reason.message})`;
  return "aborted";
}
