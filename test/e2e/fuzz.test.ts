// Property-based fuzzing of the hook contract on the BUILT binary: whatever arrives on stdin, the
// process exits 0 or 1 (never 2), prints nothing on stdout, ends by itself inside --timeout and
// appends exactly one log line. FUZZ_RUNS (default 1000) and FUZZ_SEED make it bigger or replay it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURES, removeHome, runBin } from "../helpers/run-bin.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const PARALLEL = 4;
const TIMEOUT_S = 5;

const fixtures = ["claude-code", "droid", "droid-documented"].flatMap((dir) =>
  readdirSync(join(FIXTURES, dir))
    .filter((file) => file.endsWith(".json"))
    .map(
      (file) =>
        JSON.parse(readFileSync(join(FIXTURES, dir, file), "utf8")) as Record<string, unknown>,
    ),
);
const EVENTS = ["Notification", "Stop", "SubagentStop", "SessionEnd", "StopFailure"];
const FIELDS = [
  "hook_event_name",
  "hookEventName",
  "session_id",
  "sessionId",
  "transcript_path",
  "cwd",
  "message",
  "reason",
  "notification_type",
  "last_assistant_message",
  "agent_type",
  "stop_hook_active",
  "session_duration_ms",
  "message_count",
];

const jsonValue = fc.jsonValue({ maxDepth: 4 });

// A real payload with fields deleted, retyped or swapped for hostile values.
const mutatedFixture = fc
  .tuple(
    fc.constantFrom(...fixtures),
    fc.array(
      fc.tuple(
        fc.constantFrom(...FIELDS),
        fc.oneof(
          jsonValue,
          fc.constant(undefined),
          fc.string({ unit: "grapheme", maxLength: 200 }),
          fc.constantFrom(
            "$(touch /tmp/hn-fuzz-canary) `id` <!channel> @everyone \u001b[31m",
            "\u0000\u0000",
            "../../../../etc/passwd",
            "/dev/zero",
            "/proc/self/fd/0",
          ),
        ),
      ),
      { maxLength: 6 },
    ),
  )
  .map(([base, edits]) => {
    const event: Record<string, unknown> = { ...base };
    for (const [key, value] of edits) {
      if (value === undefined) Reflect.deleteProperty(event, key);
      else event[key] = value;
    }
    return Buffer.from(JSON.stringify(event));
  });

const deepNesting = fc.integer({ min: 1, max: 200_000 }).map((depth) => {
  const inner = `{"hook_event_name":"Stop","x":${"[".repeat(depth)}${"]".repeat(depth)}}`;
  return Buffer.from(inner);
});

const hugeString = fc
  .tuple(fc.constantFrom(...EVENTS), fc.integer({ min: 900_000, max: 1_200_000 }))
  .map(([event, size]) =>
    Buffer.from(JSON.stringify({ hook_event_name: event, message: "m".repeat(size) })),
  );

const invalidBytes = fc
  .tuple(fc.constantFrom(...EVENTS), fc.uint8Array({ minLength: 1, maxLength: 64 }))
  .map(([event, bytes]) =>
    Buffer.concat([
      Buffer.from(`{"hook_event_name":"${event}","message":"`),
      Buffer.from(bytes),
      Buffer.from([0xff, 0xfe, 0x00, 0xc3]),
      Buffer.from('"}'),
    ]),
  );

const randomJson = jsonValue.map((value) => Buffer.from(JSON.stringify(value)));
const randomBytes = fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes));
const unknownEvent = fc
  .string({ minLength: 1, maxLength: 40 })
  .map((name) => Buffer.from(JSON.stringify({ hook_event_name: name, session_id: "s" })));

const input = fc.oneof(
  { arbitrary: mutatedFixture, weight: 8 },
  { arbitrary: randomJson, weight: 3 },
  { arbitrary: randomBytes, weight: 2 },
  { arbitrary: invalidBytes, weight: 2 },
  { arbitrary: unknownEvent, weight: 2 },
  { arbitrary: deepNesting, weight: 1 },
  { arbitrary: hugeString, weight: 1 },
);

// No notification bus, no player, no config: the whole pipeline runs, and nothing is spawned per case.
const root = mkdtempSync(join(tmpdir(), "hook-notify-fuzz-"));
const bin = join(root, "bin");
mkdirSync(bin);
symlinkSync(process.execPath, join(bin, "node"));
// A case's worker may still be writing its log when the case's home goes (it is asked to leave,
// not waited for): removeHome asks every worker left below the root to go, and tries again for 30 s.
afterAll(() => removeHome(root), 60_000);

interface Failure {
  index: number;
  problem: string;
  input: string;
}

async function check(index: number, stdin: Buffer): Promise<Failure | undefined> {
  const home = join(root, `case-${index}`);
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_STATE_HOME: join(home, "state"),
    PATH: bin,
    HOOK_NOTIFY_WORKER_IDLE_SECONDS: "0",
  };
  const result = await runBin(["--timeout", String(TIMEOUT_S)], {
    input: stdin,
    env,
    killAfterMs: TIMEOUT_S * 1000 + 8_000,
  });
  let logLines = -1;
  try {
    const log = readFileSync(join(home, "state", "hook-notify", "log.ndjson"), "utf8");
    logLines = log.split("\n").filter(Boolean).length;
  } catch {
    logLines = 0;
  }
  // The worker that ran the handed-over event may still be leaving: ask it to go, then remove.
  await removeHome(home);
  const problem =
    result.signal !== null
      ? `did not end by itself (killed by ${result.signal})`
      : result.code !== 0 && result.code !== 1
        ? `exit ${String(result.code)}`
        : result.stdout !== ""
          ? `stdout: ${result.stdout.slice(0, 200)}`
          : logLines !== 1
            ? `${logLines} log lines`
            : undefined;
  if (!problem) return undefined;
  const shown =
    stdin.length > 300
      ? `${stdin.subarray(0, 300).toString("latin1")}… (${stdin.length} bytes)`
      : stdin.toString("latin1");
  return { index, problem: `${problem} (after ${Math.round(result.ms)} ms)`, input: shown };
}

describe("fuzzing the hook contract on the built binary", () => {
  it(
    `holds for ${RUNS} generated inputs (seed ${SEED})`,
    async () => {
      const cases = fc.sample(input, { numRuns: RUNS, seed: SEED });
      const failures: Failure[] = [];
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < cases.length) {
          const index = next++;
          const failure = await check(index, cases[index]!);
          if (failure) failures.push(failure);
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, worker));
      expect(failures.slice(0, 5), `seed ${SEED}: ${failures.length} failing cases`).toEqual([]);
    },
    30 * 60_000,
  );
});
