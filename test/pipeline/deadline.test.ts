// The hook run's deadline budget (src/pipeline/deadline.ts): the numbers the client's timeout turns
// into. Pure, so each case is a row: started is 1 000 000 ms.
import { describe, expect, it } from "vitest";
import {
  deliverBudgetMs,
  eventDeadline,
  hookBudget,
  inputWaitMs,
} from "../../src/pipeline/deadline.js";

const T0 = 1_000_000;

describe("hookBudget", () => {
  it.each([
    // --timeout (s), deadline after started, hard deadline after started
    [10, 9750, 9950],
    [1, 750, 950],
    [0.5, 300, 500], // 250 ms left after the exit margin: the 300 ms floor wins
    [undefined, 10_000, 10_200], // no --timeout: 10 s
    [0, 10_000, 10_200],
  ])("--timeout %s: deadline +%i ms, safety net +%i ms", (timeout, deadline, hard) => {
    expect(hookBudget(T0, timeout)).toEqual({ deadline: T0 + deadline, hardDeadline: T0 + hard });
  });

  it("exits before the client's timeout for every whole --timeout", () => {
    for (const seconds of [1, 2, 5, 10, 30, 60, 600]) {
      expect(hookBudget(T0, seconds).hardDeadline).toBeLessThan(T0 + seconds * 1000);
    }
  });
});

describe("inputWaitMs", () => {
  it.each([
    [9750, 7750], // keeps 2 s for the work after stdin
    [3000, 1500], // keeps half when that is less than 2 s
    [300, 150],
    [0, 0],
    [-50, 0], // past the deadline: no wait
  ])("%i ms left: waits %i ms for stdin", (left, wait) => {
    expect(inputWaitMs(left)).toBe(wait);
  });
});

describe("eventDeadline", () => {
  const deadline = T0 + 9750;
  it.each([
    ["SessionEnd", false, T0 + 1300], // Claude Code's 1.5 s for SessionEnd
    ["SessionEnd", true, deadline], // the entry set a timeout: it holds
    ["Stop", false, deadline],
    ["Notification", false, deadline],
  ])("%s (explicit --timeout: %s)", (name, explicitTimeout, expected) => {
    expect(eventDeadline(deadline, T0, { name, explicitTimeout })).toBe(expected);
  });

  it("never moves a short deadline later", () => {
    expect(eventDeadline(T0 + 300, T0, { name: "SessionEnd", explicitTimeout: false })).toBe(
      T0 + 300,
    );
  });
});

describe("deliverBudgetMs", () => {
  it("ends 150 ms before the deadline, for the log line", () => {
    expect(deliverBudgetMs(T0 + 9750, T0 + 100)).toBe(9500);
  });
});
