// How approvals on one machine share a bot: one poll lock (taken over from a process that is
// gone, never from one that lives), presses handed to the request they belong to, one use each.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  deliverPress,
  holdsPollLock,
  isUsed,
  markUsed,
  openInbox,
  readOffset,
  releasePollLock,
  takePollLock,
  takePresses,
  writeOffset,
} from "../../src/approve/telegram-inbox.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function inbox() {
  const dir = mkdtempSync(join(tmpdir(), "hn-inbox-"));
  dirs.push(dir);
  return openInbox(dir, "123456:secret-part");
}

// The pid of a process that has ended (a real one, so the number was really used).
function goneProcess(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid;
}

describe("the Telegram inbox", () => {
  it("lives under the bot's public id, never its secret part", () => {
    expect(inbox().dir).toMatch(/telegram[/\\]123456$/);
  });

  it("one poll lock: refused while a live process holds it, taken from a gone one", () => {
    const box = inbox();
    const lock = join(box.dir, "poll.lock");
    writeFileSync(lock, String(process.ppid));
    expect(takePollLock(box, Date.now())).toBe(false);
    writeFileSync(lock, String(goneProcess()));
    expect(takePollLock(box, Date.now())).toBe(true);
    expect(takePollLock(box, Date.now())).toBe(false);
    expect(holdsPollLock(box)).toBe(true);
    releasePollLock(box);
    expect(takePollLock(box, Date.now())).toBe(true);
    // Another process that took it at the same moment wrote its name last: this one lost it.
    writeFileSync(lock, String(process.ppid));
    expect(holdsPollLock(box)).toBe(false);
    releasePollLock(box);
    expect(takePollLock(box, Date.now())).toBe(false);
  });

  it("a press handed to a request is taken once, by that request; the offset carries over", () => {
    const box = inbox();
    const press = { id: "q1", data: "hn1.a.x", chatId: "42" };
    deliverPress(box, "requestA", press);
    deliverPress(box, "requestA", { ...press, id: "q2" });
    expect(takePresses(box, "requestB")).toEqual([]);
    expect(takePresses(box, "requestA").map((p) => p.id)).toEqual(["q1", "q2"]);
    expect(takePresses(box, "requestA")).toEqual([]);
    expect(readOffset(box)).toBeUndefined();
    writeOffset(box, 17);
    expect(readOffset(box)).toBe(17);
  });

  it("a request is used once: a second press of it is a replay", () => {
    const box = inbox();
    expect(isUsed(box, "requestA")).toBe(false);
    expect(markUsed(box, "requestA")).toBe(true);
    expect(markUsed(box, "requestA")).toBe(false);
    expect(isUsed(box, "requestA")).toBe(true);
  });
});
