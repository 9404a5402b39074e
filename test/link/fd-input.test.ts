// The hook's stdin reader (src/link/fd-input.ts) with each kind of fd 0 a client may give: a
// regular file (`hook-notify < event.json`), a pipe (shell clients), a socket (node-based clients:
// their child's stdin is a socket pair), each written at once, slowly, never closed, or closed
// early. A bundled reader runs as a real process; nothing here measures time.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../helpers/bundle.js";

const EVENT = JSON.stringify({ hook_event_name: "Stop", session_id: "fd0", note: "x".repeat(300) });
let reader = "";
let cleanup: () => Promise<void> = () => Promise.resolve();
const dir = mkdtempSync(join(tmpdir(), "hn-fd0-"));

beforeAll(async () => {
  const built = await bundle({ reader: "test/fixtures/stdin/read-fd0.ts" });
  reader = built.files.reader as string;
  cleanup = built.cleanup;
}, 60_000);
afterAll(async () => {
  await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

interface Got {
  how: string;
  text?: string;
  code?: string;
  whole?: boolean;
}

function collect(child: ReturnType<typeof spawn>): Promise<Got> {
  let out = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  return new Promise((resolve) => {
    child.on("close", () => {
      resolve(JSON.parse(out.trim() || '{"how":"nothing"}') as Got);
    });
  });
}

// A socket on fd 0 (what node's 'pipe' stdio is): `write` gets the child's stdin.
function overSocket(write: (stdin: NodeJS.WritableStream & { end(): void }) => void) {
  const child = spawn(process.execPath, [reader], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, HN_WAIT_MS: "1000" },
  });
  child.stdin.on("error", () => undefined);
  write(child.stdin);
  return collect(child);
}

// A real pipe on fd 0: a shell writes into `|`.
function overPipe(writer: string) {
  const child = spawn("sh", ["-c", `${writer} | "${process.execPath}" "${reader}"`], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, HN_WAIT_MS: "1000", EVENT },
  });
  return collect(child);
}

describe("the hook's stdin reader", () => {
  it("a regular file: read whole at once", async () => {
    const file = join(dir, "event.json");
    writeFileSync(file, EVENT);
    const fd = openSync(file, "r");
    const child = spawn(process.execPath, [reader], { stdio: [fd, "pipe", "inherit"] });
    closeSync(fd);
    expect(await collect(child)).toEqual({ how: "waiting", text: EVENT, whole: true });
  });

  it("an empty file: nothing, which the hook does not take for an event", async () => {
    const file = join(dir, "empty.json");
    writeFileSync(file, "");
    const fd = openSync(file, "r");
    const child = spawn(process.execPath, [reader], { stdio: [fd, "pipe", "inherit"] });
    closeSync(fd);
    expect(await collect(child)).toMatchObject({ text: "", whole: false });
  });

  it.each([
    ["written at once", `printf '%s' "$EVENT"`],
    [
      "written slowly, in two pieces",
      `{ printf '%s' "$EVENT" | head -c 100; sleep 0.3; printf '%s' "$EVENT" | tail -c +101; }`,
    ],
  ])("a pipe, %s: the whole event", async (_name, writer) => {
    const got = await overPipe(writer);
    expect(got).toMatchObject({ text: EVENT, whole: true });
  });

  it("a pipe that never closes and never holds an event: a timeout, and the process still ends", async () => {
    expect(await overPipe("sleep 3")).toMatchObject({ how: "error", code: "INPUT_TIMEOUT" });
  });

  it("a pipe closed after half an event: the half, which the hook does not take for an event", async () => {
    const got = await overPipe(`printf '%s' "$EVENT" | head -c 50`);
    expect(got).toMatchObject({ text: EVENT.slice(0, 50), whole: false });
  });

  it("a socket written at once: the whole event", async () => {
    const got = await overSocket((stdin) => {
      stdin.end(EVENT);
    });
    expect(got).toMatchObject({ text: EVENT, whole: true });
  });

  it("a socket written slowly, in two pieces, left open: the whole event", async () => {
    const got = await overSocket((stdin) => {
      stdin.write(EVENT.slice(0, 100));
      setTimeout(() => stdin.write(EVENT.slice(100)), 300);
      setTimeout(() => {
        stdin.end();
      }, 3_000);
    });
    expect(got).toMatchObject({ text: EVENT, whole: true });
  });

  it("a socket that never closes and never holds an event: a timeout, and the process still ends", async () => {
    let keep: (NodeJS.WritableStream & { end(): void }) | undefined;
    const got = await overSocket((stdin) => {
      keep = stdin;
    });
    keep?.end();
    expect(got).toMatchObject({ how: "error", code: "INPUT_TIMEOUT" });
  });

  it("a socket closed after half an event: the half, which the hook does not take for an event", async () => {
    const got = await overSocket((stdin) => {
      stdin.end(EVENT.slice(0, 50));
    });
    expect(got).toMatchObject({ text: EVENT.slice(0, 50), whole: false });
  });

  // A shell that passes its own stdin on to the hook shares that socket: the reader must leave it
  // as it found it, blocking (it reads through public fs and never changes fd 0's flags).
  it("a socket shared with the shell that started the reader: still blocking afterwards", async () => {
    const flags = `${JSON.stringify(process.execPath)} -e 'process.stdout.write(String(require("node:fs").fstatSync(0).isSocket()))'; python3 -c 'import fcntl, os; print(" nonblock=" + str(bool(fcntl.fcntl(0, fcntl.F_GETFL) & os.O_NONBLOCK)))'`;
    const child = spawn("sh", ["-c", `"${process.execPath}" "${reader}" >/dev/null; ${flags}`], {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, HN_WAIT_MS: "1000" },
    });
    child.stdin.on("error", () => undefined);
    child.stdin.write(EVENT);
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    await new Promise((resolve) => child.on("close", resolve));
    expect(out.trim()).toBe("true nonblock=False");
  });
});
