// The journal is the log's one writer and reader: bounded however long only the worker writes,
// read from the end for `log -n`, and a FIFO in the log's place never blocks a writer.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_LOG_BYTES } from "../../src/core/defaults.js";
import { appendJournal, journal, startRecord } from "../../src/journal/append.js";
import { rotatedPath } from "../../src/journal/append-file.js";
import { parseLine } from "../../src/journal/line.js";
import { readBackwards, readTail } from "../../src/journal/read.js";
import { readRuns } from "../../src/journal/runs.js";
import type { Deps } from "../../src/deps.js";

const POSIX = process.platform !== "win32";

function stateHome(): { dir: string; log: string; deps: Deps } {
  const dir = mkdtempSync(join(tmpdir(), "hn-journal-"));
  const deps = { env: { XDG_STATE_HOME: dir }, homedir: dir, now: () => 1_700_000_000_000 };
  return { dir, log: join(dir, "hook-notify", "log.ndjson"), deps: deps as unknown as Deps };
}

describe("the journal's writer", () => {
  it("keeps the log and one rotated file, bounded, while only the worker writes", () => {
    const { dir, log, deps } = stateHome();
    const message = "x".repeat(400);
    const lines = Math.ceil((3 * MAX_LOG_BYTES) / 450);
    for (let i = 0; i < lines; i += 1)
      journal(deps, { outbox: "retry", sink: "hook", id: `n${i}`, message, attempts: 2 });
    const files = readdirSync(join(dir, "hook-notify")).sort();
    expect(files).toEqual(["log.1.ndjson", "log.ndjson"]);
    const total = statSync(log).size + statSync(rotatedPath(log)).size;
    expect(total).toBeLessThanOrEqual(2 * MAX_LOG_BYTES + 1024);
    // the newest line is kept, and it reads back as the union's outbox member
    const newest: string[] = [];
    readBackwards(log, (line) => newest.push(line) > 0);
    const parsed = parseLine(newest[0] ?? "");
    expect(parsed?.outbox).toBe("retry");
    expect(parsed?.id).toBe(`n${lines - 1}`);
  });

  it.runIf(POSIX)("refuses a FIFO in the log's place at once (no reader: never blocks)", () => {
    const { log } = stateHome();
    execFileSync("mkdir", ["-p", join(log, "..")]);
    execFileSync("mkfifo", [log]);
    expect(appendJournal(log, startRecord(0), [])).toBe(false);
  });

  it("masks the config's secrets in what it writes", () => {
    const { log, deps } = stateHome();
    journal(deps, { outbox: "failed", sink: "hook", id: "a", message: "token s3cr3t-v4lue" }, [
      "s3cr3t-v4lue",
    ]);
    const lines = readTail(log, () => false) ?? [];
    expect(lines.join("\n")).not.toContain("s3cr3t-v4lue");
  });
});

describe("the journal's reader", () => {
  it("reads the end of a long log for the last runs, not the whole file", () => {
    const { log } = stateHome();
    const runs = 100_000;
    const text: string[] = [];
    for (let i = 0; i < runs; i += 1)
      text.push(JSON.stringify({ ...startRecord(i), id: `r${i}`, outcomes: [] }));
    execFileSync("mkdir", ["-p", join(log, "..")]);
    writeFileSync(log, `${text.join("\n")}\n`);
    let visited = 0;
    const tail = readTail(log, (line) => ++visited > 20 && line.length > 0);
    expect(visited).toBe(21);
    expect(tail).toHaveLength(21);
    const read = readRuns(log, { tail: 20, failed: false });
    expect(read?.runs.map((r) => r.record.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => `r${runs - 20 + i}`),
    );
  });

  it("reads the rotated file after the log, newest line first", () => {
    const { log } = stateHome();
    execFileSync("mkdir", ["-p", join(log, "..")]);
    writeFileSync(rotatedPath(log), "old-1\nold-2\n");
    writeFileSync(log, "new-1\nnew-2");
    const seen: string[] = [];
    readBackwards(log, (line) => seen.push(line) < 0);
    expect(seen).toEqual(["new-2", "new-1", "old-2", "old-1"]);
  });

  it("says which lines it could not place: not JSON, not a known shape, an unknown outbox fate", () => {
    expect(parseLine("not json")).toBeUndefined();
    expect(parseLine("[1]")).toBeUndefined();
    expect(parseLine('{"time":"t"}')).toBeUndefined();
    expect(parseLine('{"outbox":"teleported","sink":"a"}')).toBeUndefined();
    expect(parseLine('{"time":"t","outcomes":[{"sink":"a","ok":true}, 3]}')).toMatchObject({
      outcomes: [{ sink: "a", ok: true }],
    });
  });
});
