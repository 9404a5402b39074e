import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { claimMarker, peekMarker, sweepMarkers } from "../../src/pipeline/seen-markers.js";

function tempSeen(): string {
  const root = mkdtempSync(join(tmpdir(), "hook-notify-seen-"));
  onTestFinished(() => {
    chmodSync(root, 0o700);
    rmSync(root, { recursive: true, force: true });
  });
  return join(root, "state", "seen");
}

// Backdates a marker, as if it had been claimed `ageMs` ago.
function age(dir: string, name: string, ageMs: number): void {
  const then = new Date(Date.now() - ageMs);
  utimesSync(join(dir, name), then, then);
}

describe("claimMarker", () => {
  it("a notification run again (its worker died during the run) passes its own markers; no other does", () => {
    const dir = tempSeen();
    const a = "0b7e0f4c-5a1d-4e2b-9c3f-6d8a7b1e2f30";
    const b = "7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e";
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now(), a)).toBe(true);
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now(), a)).toBe(true); // the same notification
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now(), b)).toBe(false); // a repeat
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now())).toBe(false);
    // A marker that names nobody (an older build's, a full disk) is nobody's own.
    writeFileSync(join(dir, "dd-c-5"), "");
    expect(claimMarker(dir, "dd-c-5", 5000, Date.now(), a)).toBe(false);
    // Past the window it is claimed anew, by whoever comes.
    age(dir, "dd-a-5", 6000);
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now(), b)).toBe(true);
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now(), a)).toBe(false);
  });

  it("creates the folder 0700 and the marker 0600; the second claim in the window loses", () => {
    const dir = tempSeen();
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now())).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "dd-a-5")).mode & 0o777).toBe(0o600);
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now())).toBe(false);
    expect(claimMarker(dir, "dd-b-5", 5000, Date.now())).toBe(true);
  });

  it.each<[string, number, boolean]>([
    ["inside the window (4.9 s old)", 4900, false],
    ["past the window (5.1 s old): replaced", 5100, true],
  ])("a marker %s", (_case, ageMs, wins) => {
    const dir = tempSeen();
    claimMarker(dir, "dd-a-5", 5000, Date.now());
    age(dir, "dd-a-5", ageMs);
    expect(claimMarker(dir, "dd-a-5", 5000, Date.now())).toBe(wins);
    if (wins) {
      expect(Date.now() - statSync(join(dir, "dd-a-5")).mtimeMs).toBeLessThan(2000);
      expect(readdirSync(dir)).toEqual(["dd-a-5"]); // nothing left aside
    }
  });

  it.runIf(process.getuid?.() !== 0)("answers true when the state folder is unwritable", () => {
    const dir = tempSeen();
    claimMarker(dir, "dd-x-5", 5000, Date.now());
    chmodSync(dir, 0o500);
    expect(claimMarker(dir, "dd-y-5", 5000, Date.now())).toBe(true);
  });

  it("answers true when the state path is not a folder at all", () => {
    const dir = tempSeen();
    claimMarker(dir, "dd-x-5", 5000, Date.now());
    const file = join(dir, "not-a-dir");
    writeFileSync(file, "");
    expect(claimMarker(join(file, "seen"), "dd-y-5", 5000, Date.now())).toBe(true);
  });
});

describe("peekMarker (--dry-run)", () => {
  it("tells what a claim would say and creates nothing", () => {
    const dir = tempSeen();
    expect(peekMarker(dir, "dd-a-5", 5000, Date.now())).toBe(true);
    expect(existsSync(dir)).toBe(false);
    claimMarker(dir, "dd-a-5", 5000, Date.now());
    expect(peekMarker(dir, "dd-a-5", 5000, Date.now())).toBe(false);
    // mtimes have sub-millisecond precision, Date.now() does not: a 1 ms margin
    expect(peekMarker(dir, "dd-a-5", 5000, Date.now() + 5001)).toBe(true);
  });
});

describe("sweepMarkers", () => {
  it("deletes markers past their window (at least a minute old) and keeps the rest", () => {
    const dir = tempSeen();
    for (const name of ["dd-old-5", "dd-new-5", "cd-long-600", "dd-x.1abc.old"])
      claimMarker(dir, name, 5000, Date.now());
    age(dir, "dd-old-5", 61_000);
    age(dir, "dd-new-5", 30_000); // past 5 s, but kept for a minute: sweeping is cheap, not eager
    age(dir, "cd-long-600", 300_000); // a 10-minute cool-down still running
    age(dir, "dd-x.1abc.old", 120_000); // left aside by a killed process
    sweepMarkers(dir, Date.now());
    expect(readdirSync(dir).sort()).toEqual(["cd-long-600", "dd-new-5"]);
  });

  it("does nothing when the folder is missing", () => {
    expect(() => {
      sweepMarkers(join(tempSeen(), "nope"), Date.now());
    }).not.toThrow();
  });
});
