// The receipt part of a `hook-notify log` cell: a banner's id, then how it ended, in words.
import { describe, expect, it } from "vitest";
import { parseLog } from "../../src/journal/runs.js";
import { receiptNote } from "../../src/commands/log-receipts.js";

const run = JSON.stringify({
  time: "2026-11-25T10:00:00.000Z",
  ms: 5,
  id: "a",
  outcomes: [{ sink: "desktop", type: "desktop", target: "notify-send", ok: true, ms: 3 }],
  skipped: [],
  issues: [],
});
const receipt = (state: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ time: "t", outbox: "receipt", sink: "desktop", id: "a", state, ...extra });

function noteOf(...lines: string[]): string {
  const logged = parseLog([run, ...lines].join("\n")).runs[0];
  if (!logged) throw new Error("no run parsed");
  return receiptNote(logged, "desktop", undefined);
}

describe("receiptNote", () => {
  it.each([
    ["closed", { messageId: "3", reason: "dismissed" }, " (shown #3, dismissed)"],
    ["closed", { messageId: "3", reason: "expired" }, " (shown #3, expired)"],
    ["closed", { messageId: "3" }, " (shown #3, closed)"],
    [
      "clicked",
      { messageId: "3", reason: "tmux pane %3 selected" },
      " (shown #3, clicked: tmux pane %3 selected)",
    ],
    [
      "unknown",
      {
        messageId: "3",
        reason: "dbus-monitor not found (Debian/Ubuntu: dbus-bin; Fedora: dbus-tools)",
      },
      " (shown #3, close reason unknown: dbus-monitor not found (Debian/Ubuntu: dbus-bin; Fedora: dbus-tools))",
    ],
  ])("shown, then %s %o", (state, extra, note) => {
    expect(noteOf(receipt("shown", { messageId: "3" }), receipt(state, extra))).toBe(note);
  });

  it("shows a reason from outside as inert text, cut short", () => {
    const note = noteOf(receipt("closed", { reason: `\u001b[31mred\u202e${"x".repeat(100)}` }));
    expect(note).not.toContain("\u001b");
    expect(note).not.toContain("\u202e");
    expect(note.length).toBeLessThan(90);
  });

  it("is empty when nothing was reported", () => {
    expect(noteOf()).toBe("");
  });
});
