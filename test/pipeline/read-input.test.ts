import { spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it, onTestFinished } from "vitest";
import { HookNotifyError, type ErrorCode } from "../../src/errors.js";
import { streamInput, textInput, type InputSource } from "../../src/input-source.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";
import { readInput, type ReadInputOptions } from "../../src/pipeline/read-input.js";
import { fixtureText } from "./event-fixtures.js";

const MIB = 1 << 20;
// What runHook uses, with a short idle wait: nothing here waits on it unless a case says so.
const OPTIONS: ReadInputOptions = { maxBytes: MIB, idleMs: 2000, totalMs: 5000 };
const STOP = fixtureText("claude-code/Stop.json");

async function readError(source: InputSource, options = OPTIONS): Promise<HookNotifyError> {
  const error: unknown = await readInput(source, options).then(
    () => new Error("readInput resolved"),
    (e: unknown) => e,
  );
  if (error instanceof HookNotifyError) return error;
  throw error;
}

// Counts what the reader took from the source, to prove it stopped early.
function counting(source: InputSource): { source: InputSource; taken: () => number } {
  let taken = 0;
  return {
    source: {
      ...source,
      async read(buffer) {
        const n = await source.read(buffer);
        taken += n;
        return n;
      },
    },
    taken: () => taken,
  };
}

// A source that never runs dry: spaces forever, as a runaway writer would send.
function endless(): InputSource {
  return {
    isTTY: false,
    read(buffer) {
      buffer.fill(0x20);
      return Promise.resolve(buffer.length);
    },
    release: () => undefined,
  };
}

async function tempFile(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hook-notify-input-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "event.json");
  await writeFile(file, text);
  return file;
}

// A real pipe: a child node process writing `script`'s output to its stdout.
function childStdout(script: string): Readable {
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "ignore"] });
  onTestFinished(() => {
    if (child.exitCode === null) child.kill();
  });
  return child.stdout;
}

describe("readInput", () => {
  it.each([
    ["a fixture as text", () => textInput(STOP), STOP],
    ["a stream in small chunks", () => streamInput(Readable.from(chunksOf(STOP, 7))), STOP],
    [
      "UTF-8 split mid-character",
      () => streamInput(Readable.from(splitUtf8('{"m":"é✓"}'))),
      '{"m":"é✓"}',
    ],
    ["no input at all", () => textInput(""), ""],
  ])("reads %s whole", async (_case, source, expected) => {
    expect(await readInput(source(), OPTIONS)).toBe(expected);
  });

  it("reads a payload from a real file through a read stream", async () => {
    const file = await tempFile(STOP);
    expect(await readInput(streamInput(createReadStream(file)), OPTIONS)).toBe(STOP);
  });

  it("reads a payload from a real pipe", async () => {
    const stdout = childStdout(`process.stdout.write(${JSON.stringify(STOP)})`);
    expect(await readInput(streamInput(stdout), OPTIONS)).toBe(STOP);
  });

  it.each(["", " \n", "\n\n\t"])(
    "hands empty input %j to parseEvent, which says INPUT_EMPTY",
    async (text) => {
      const raw = await readInput(textInput(text), OPTIONS);
      expect(() => parseEvent(raw)).toThrow(expect.objectContaining({ code: "INPUT_EMPTY" }));
    },
  );
});

describe("readInput size cap", () => {
  it.each([
    ["exactly the cap", 100, undefined],
    ["one byte over", 101, "INPUT_TOO_LARGE"],
  ] as const)("%s", async (_case, length, code: ErrorCode | undefined) => {
    const text = `{"a":"${"x".repeat(length - 8)}"}`;
    expect(Buffer.byteLength(text)).toBe(length);
    const options = { ...OPTIONS, maxBytes: 100 };
    if (code) expect((await readError(textInput(text), options)).code).toBe(code);
    else expect(await readInput(textInput(text), options)).toBe(text);
  });

  it("accepts a 1 MiB event", async () => {
    const text = `{"hook_event_name":"Stop","message":"${"m".repeat(MIB - 45)}"}`;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MIB);
    expect(await readInput(textInput(text), OPTIONS)).toHaveLength(text.length);
  });

  it("refuses 2 MiB after reading little more than 1 MiB of it", async () => {
    const text = `{"hook_event_name":"Stop","message":"${"m".repeat(2 * MIB)}"}`;
    const input = counting(textInput(text));
    expect((await readError(input.source)).code).toBe("INPUT_TOO_LARGE");
    expect(input.taken()).toBeGreaterThan(MIB);
    expect(input.taken()).toBeLessThanOrEqual(MIB + 64 * 1024);
  });

  it("stops a writer that never stops", async () => {
    const input = counting(endless());
    expect((await readError(input.source)).code).toBe("INPUT_TOO_LARGE");
    expect(input.taken()).toBeLessThanOrEqual(MIB + 64 * 1024);
  });

  it("refuses an oversized event from a real pipe", async () => {
    const stdout = childStdout(`process.stdout.write("[" + "1,".repeat(${MIB}) + "1]")`);
    expect((await readError(streamInput(stdout))).code).toBe("INPUT_TOO_LARGE");
  });

  it("refuses an oversized real file", async () => {
    const file = await tempFile(" ".repeat(MIB + 1));
    expect((await readError(streamInput(createReadStream(file)))).code).toBe("INPUT_TOO_LARGE");
  });
});

describe("readInput deadlines", () => {
  const quick: ReadInputOptions = { maxBytes: MIB, idleMs: 20, totalMs: 5000 };

  it("gives up with INPUT_TIMEOUT on a stream that stays open and empty", async () => {
    const stream = new PassThrough();
    const error = await readError(streamInput(stream), quick);
    expect(error.code).toBe("INPUT_TIMEOUT");
    expect(stream.isPaused()).toBe(true);
  });

  it("gives up with INPUT_TIMEOUT on an incomplete event when the writer goes quiet", async () => {
    const stream = new PassThrough();
    stream.write(STOP.slice(0, 40));
    expect((await readError(streamInput(stream), quick)).code).toBe("INPUT_TIMEOUT");
  });

  it("applies the total deadline even when the idle wait is long", async () => {
    const error = await readError(streamInput(new PassThrough()), {
      maxBytes: MIB,
      idleMs: 60_000,
      totalMs: 20,
    });
    expect(error.code).toBe("INPUT_TIMEOUT");
  });

  it.each([
    ["ending in }", STOP.trimEnd()],
    ["ending in a newline", `${STOP.trimEnd()}\n`],
  ])("accepts a complete event %s while stdin stays open", async (_case, text) => {
    const stream = new PassThrough();
    stream.write(text);
    // A long idle wait for the "}" case: it must not be needed.
    const options = text.endsWith("}") ? { ...quick, idleMs: 60_000 } : quick;
    expect(await readInput(streamInput(stream), options)).toBe(text);
    expect(stream.isPaused()).toBe(true);
  });

  it("reports a stream error as INPUT_INVALID with the cause", async () => {
    const stream = new PassThrough();
    const reading = readError(streamInput(stream));
    stream.destroy(new Error("EIO: i/o error, read"));
    const error = await reading;
    expect(error.code).toBe("INPUT_INVALID");
    expect(error.cause).toBeInstanceOf(Error);
  });
});

function chunksOf(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

// Each byte its own chunk, so multi-byte characters arrive in pieces.
function splitUtf8(text: string): Buffer[] {
  return chunksOf(text, 1);
}
