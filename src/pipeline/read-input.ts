import { HookNotifyError } from "../errors.js";
import type { InputSource } from "../input-source.js";
import { parses } from "../whole-json.js";

export interface ReadInputOptions {
  /** Larger input is refused, not buffered. */
  maxBytes: number;
  /** Give up when no byte arrives for this long (stdin that never closes). */
  idleMs: number;
  /** Give up after this long in all. */
  totalMs: number;
}

const CHUNK = 64 * 1024;

// Reads the hook event within a size cap and deadlines, so a stuck client can never hang us.
// A complete JSON object is accepted at once, even if the client keeps stdin open.
export async function readInput(source: InputSource, options: ReadInputOptions): Promise<string> {
  try {
    return await readAll(source, options);
  } finally {
    source.release();
  }
}

async function readAll(source: InputSource, options: ReadInputOptions): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const stopAt = Date.now() + options.totalMs;
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK);
    const wait = Math.min(options.idleMs, stopAt - Date.now());
    const bytes = await withDeadline(source.read(buffer), wait);
    if (bytes === "timeout") {
      if (size > 0 && parsesAll(chunks)) break;
      throw new HookNotifyError("INPUT_TIMEOUT", timeoutMessage(size));
    }
    if (bytes === 0) break;
    size += bytes;
    if (size > options.maxBytes)
      throw new HookNotifyError("INPUT_TOO_LARGE", tooLargeMessage(options.maxBytes));
    chunks.push(buffer.subarray(0, bytes));
    if (buffer[bytes - 1] === 0x7d /* } */ && parsesAll(chunks)) break;
  }
  return Buffer.concat(chunks).toString("utf8");
}

function withDeadline(work: Promise<number>, ms: number): Promise<number | "timeout"> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => {
        resolve("timeout");
      },
      Math.max(0, ms),
    );
    timer.unref();
    work.then(
      (n) => {
        clearTimeout(timer);
        resolve(n);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(
          new HookNotifyError(
            "INPUT_INVALID",
            `stdin: ${error instanceof Error ? error.message : String(error)}`,
            { cause: error },
          ),
        );
      },
    );
  });
}

function parsesAll(chunks: Buffer[]): boolean {
  return parses(Buffer.concat(chunks).toString("utf8"));
}

function timeoutMessage(size: number): string {
  return size === 0
    ? "stdin: no hook event arrived (stdin stayed open and empty). Pipe the event JSON in, e.g. cat event.json | hook-notify --dry-run."
    : "stdin: the hook event was incomplete when stdin went quiet. Send one whole JSON object.";
}

function tooLargeMessage(maxBytes: number): string {
  return `stdin: the hook event is larger than ${Math.round(maxBytes / 1024)} KiB and was refused. Send one hook event, not a transcript.`;
}
