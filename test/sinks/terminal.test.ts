// The terminal sink against real pseudo-terminals: an "agent" runs on a pty made by python3's pty
// module, the sink is told its pid (or a hook shell's below it) as the hook's parent, and the
// test reads the bytes that arrived at the terminal's side of the pty.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import type { Notification } from "../../src/core/notification.js";
import { terminal } from "../../src/sinks/terminal.js";
import {
  bannerSequence,
  detectTerminal,
  inertField,
  terminalWrite,
  tmuxPassthrough,
} from "../../src/sinks/terminal-sequence.js";
import { startRealTmux, hasTmux } from "../helpers/real-tmux.js";
import { sampleNotification, testDeps } from "../helpers/sample-notification.js";
import { isRunning, tempDir } from "../helpers/sink-harness.js";

const AGENT = fileURLToPath(new URL("../fixtures/pty/agent.py", import.meta.url));
const hasPython = process.platform === "linux" && spawnSync("python3", ["--version"]).status === 0;
const ESC = "\u001b";
const BEL = "\u0007";
const ST = `${ESC}\\`;

const plain = sampleNotification({
  title: "shop-api · Waiting for you",
  body: "Claude needs your permission to use Bash",
});

// Event text that tries every way out of an OSC string we know of.
const hostile = sampleNotification({
  title: `x${BEL}${ESC}]0;owned${BEL}${ESC}\\ \u009d52;c;Zm9v\u009c \u202egnp.exe; rm -rf ~`,
  body: `a\u2028b\u2029c\r\n${ESC}[2J${ESC}P+q${ST}\u0090\u0085\u200e\u2066;9;4;1;100${BEL}end`,
});

interface Agent {
  /** The pid the sink gets as the hook's parent. */
  pid: number;
  /** Every byte the terminal has received so far, as latin1 (one char per byte). */
  received(): string;
}

// Starts an agent on a fresh pty; "hook-shell" gives the pid of a child whose fds are /dev/null.
async function startAgent(mode: "agent" | "hook-shell", command: string[] = []): Promise<Agent> {
  const capture = join(tempDir("pty"), "received");
  const child = spawn("python3", [AGENT, capture, mode, ...command], {
    stdio: "ignore",
    env: { ...process.env, TERM: "xterm-256color" },
  });
  onTestFinished(() => {
    child.kill("SIGKILL");
    const pid = readPid(capture);
    if (pid && isRunning(pid)) process.kill(pid, "SIGKILL");
  });
  await expect.poll(() => readPid(capture), { timeout: 15_000 }).toBeGreaterThan(1);
  return {
    pid: readPid(capture) ?? 0,
    received: () => (existsSync(capture) ? readFileSync(capture).toString("latin1") : ""),
  };
}

function readPid(capture: string): number | undefined {
  const file = `${capture}.pid`;
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8"));
  return pid > 1 ? pid : undefined;
}

function send(
  notification: Notification,
  env: Record<string, string>,
  ppid: number,
  options: Record<string, unknown> = {},
): Promise<unknown> {
  return terminal.send(notification, terminal.options.parse(options), {
    signal: AbortSignal.timeout(8_000),
    deps: { ...testDeps(env), ppid },
    sinkName: "tty",
    wait: true,
  });
}

const utf8 = (text: string): string => Buffer.from(text, "utf8").toString("latin1");

describe("terminal sequences (pure)", () => {
  it.each<[Record<string, string>, string, string | undefined]>([
    [{ TERM_PROGRAM: "iTerm.app", TERM: "xterm-256color" }, "iTerm2", "osc9"],
    [{ LC_TERMINAL: "iTerm2", TERM: "tmux-256color", TMUX: "/t,1,0" }, "iTerm2", "osc9"],
    [{ TERM_PROGRAM: "WezTerm", TERM: "xterm-256color" }, "WezTerm", "osc777"],
    [{ TERM_PROGRAM: "ghostty", TERM: "xterm-ghostty" }, "Ghostty", "osc777"],
    [{ TERM: "xterm-kitty", KITTY_WINDOW_ID: "1" }, "kitty", "osc99"],
    [{ TERM: "foot" }, "foot", "osc777"],
    [{ TERM: "xterm-256color", VTE_VERSION: "7600" }, "VTE", "osc777"],
    [{ TERM: "xterm-256color", VTE_VERSION: "4200" }, "xterm-256color", undefined],
    [{ TERM: "xterm-256color", WT_SESSION: "9c1f" }, "Windows Terminal", undefined],
    [{ TERM: "xterm-256color" }, "xterm-256color", undefined],
    [{ TERM: "dumb" }, "dumb", undefined],
  ])("detects %j as %s with banner %s", (env, name, banner) => {
    expect(detectTerminal(env)).toMatchObject({ name, banner });
  });

  it("completes a kitty notification that has no body in its one chunk (d=1)", () => {
    const titleOnly = sampleNotification({ id: "n1", title: "Done", body: "" });
    expect(bannerSequence("osc99", titleOnly)).toBe(`${ESC}]99;i=n1:d=1;Done${ST}`);
  });

  it("sends only the bell to a terminal not known for a title or a banner", () => {
    const write = terminalWrite(
      plain,
      { bell: true, banner: true, title: true },
      detectTerminal({ TERM: "dumb" }),
      false,
    );
    expect(write).toEqual({ text: BEL, sent: ["bell"] });
  });

  it("leaves a banner out inside tmux unless tmux passes it through, and then wraps it", () => {
    const kind = detectTerminal({ TERM: "tmux-256color", TMUX: "/t,1,0", KITTY_WINDOW_ID: "2" });
    const parts = { bell: true, banner: true, title: false };
    expect(terminalWrite(plain, parts, kind, false).sent).toEqual(["bell"]);
    const through = terminalWrite(plain, parts, kind, true);
    expect(through.text).toBe(tmuxPassthrough(bannerSequence("osc99", plain)) + BEL);
    expect(through.text.startsWith(`${ESC}Ptmux;${ESC}${ESC}]99;`)).toBe(true);
  });

  it("makes event text one inert line: no control, bidi or separator character, no field separator", () => {
    for (const field of [inertField(hostile.title, 80), inertField(hostile.body, 240)]) {
      // eslint-disable-next-line no-control-regex -- the characters that must not be there
      expect(field).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u202e\u2066;]/u);
    }
    expect(inertField("a".repeat(500), 80)).toHaveLength(80);
  });
});

describe.runIf(hasPython)("terminal sink on a real pty", () => {
  it.each<[string, Record<string, string>, string]>([
    [
      "kitty (OSC 99, title then body)",
      { TERM: "xterm-kitty", KITTY_WINDOW_ID: "1" },
      `${ESC}]99;i=01JDX4Z8N3M6Q2T9V5W7Y0B1C3:d=0;shop-api · Waiting for you${ST}` +
        `${ESC}]99;i=01JDX4Z8N3M6Q2T9V5W7Y0B1C3:d=1:p=body;Claude needs your permission to use Bash${ST}${BEL}`,
    ],
    [
      "iTerm2 (OSC 9)",
      { TERM_PROGRAM: "iTerm.app", TERM: "xterm-256color" },
      `${ESC}]9;shop-api · Waiting for you: Claude needs your permission to use Bash${BEL}${BEL}`,
    ],
    [
      "Ghostty (OSC 777)",
      { TERM_PROGRAM: "ghostty", TERM: "xterm-ghostty" },
      `${ESC}]777;notify;shop-api · Waiting for you;Claude needs your permission to use Bash${BEL}${BEL}`,
    ],
    ["an unknown terminal (the bell only)", { TERM: "dumb" }, BEL],
  ])("writes %s to the agent's terminal, byte for byte", async (_name, env, expected) => {
    const agent = await startAgent("agent");
    const report = await send(plain, env, agent.pid);
    expect((report as { via: string }).via).toMatch(/\/dev\/pts\/\d+/);
    await expect.poll(() => agent.received(), { timeout: 10_000 }).toBe(utf8(expected));
  });

  it("finds the agent's terminal above a hook shell whose own fds lead elsewhere", async () => {
    const agent = await startAgent("hook-shell");
    await send(plain, { TERM: "foot" }, agent.pid, { title: true });
    await expect
      .poll(() => agent.received(), { timeout: 10_000 })
      .toBe(
        utf8(
          `${ESC}]777;notify;shop-api · Waiting for you;Claude needs your permission to use Bash${BEL}` +
            `${ESC}]0;shop-api · Waiting for you${BEL}${BEL}`,
        ),
      );
  });

  it("lets nothing of the event out of its sequence: one OSC, one terminator, no other control", async () => {
    const agent = await startAgent("agent");
    await send(hostile, { TERM_PROGRAM: "WezTerm" }, agent.pid);
    await expect.poll(() => agent.received().endsWith(BEL + BEL), { timeout: 10_000 }).toBe(true);
    const bytes = agent.received();
    expect(bytes.startsWith(`${ESC}]777;notify;`)).toBe(true);
    const inside = bytes.slice(`${ESC}]777;notify;`.length, -2);
    // Exactly one field separator (ours, between title and body) and no control byte at all.
    expect(inside.split(";")).toHaveLength(2);
    // eslint-disable-next-line no-control-regex -- what must not reach the terminal
    expect(inside).not.toMatch(/[\u0000-\u001f\u007f]/);
    const text = Buffer.from(inside, "latin1").toString("utf8");
    expect(text).not.toMatch(/[\u0080-\u009f\u2028\u2029\u200e\u202e\u2066]/u);
    expect(text).toContain("rm -rf ~");
  });

  it("is SINK_UNAVAILABLE when the agent has no terminal, and writes to no stdout", async () => {
    const detached = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    onTestFinished(() => {
      detached.kill("SIGKILL");
    });
    const deps = testDeps({ TERM: "xterm-kitty" });
    const written: unknown[] = [];
    deps.stdout.on("data", (chunk) => written.push(chunk));
    const error = await terminal
      .send(plain, terminal.options.parse({}), {
        signal: AbortSignal.timeout(8_000),
        deps: { ...deps, ppid: detached.pid ?? 0 },
        sinkName: "tty",
        wait: true,
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SINK_UNAVAILABLE", sink: "tty", retryable: false });
    expect((error as Error).message).not.toContain("\n");
    expect(written).toEqual([]);
  });
});

describe.runIf(hasPython && hasTmux)("terminal sink inside a real tmux", () => {
  it("asks tmux for allow-passthrough and wraps the banner only when it is on", async () => {
    const tmux = await startRealTmux();
    const panePid = Number(
      tmux.tmux("display-message", "-p", "-t", tmux.env.TMUX_PANE, "#{pane_pid}").trim(),
    );
    const env = {
      ...tmux.env,
      TERM: "tmux-256color",
      LC_TERMINAL: "iTerm2",
      PATH: process.env.PATH ?? "",
    };
    const off = await send(plain, env, panePid);
    expect((off as { via: string }).via).toMatch(/: bell$/);
    tmux.tmux("set", "-g", "allow-passthrough", "on");
    const on = await send(plain, env, panePid);
    expect((on as { via: string }).via).toMatch(/osc9 \(tmux passthrough\), bell$/);
  });

  it("reaches the terminal outside tmux: the attached client's pty receives the bare OSC 9", async () => {
    const dir = tempDir("tmux");
    const socket = join(dir, "socket");
    const tmux = (...args: string[]): string =>
      execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
    tmux("new-session", "-d", "-s", "agent", "-x", "80", "-y", "24");
    onTestFinished(() => {
      spawnSync("tmux", ["-S", socket, "kill-server"]);
    });
    tmux("set", "-g", "allow-passthrough", "on");
    const outside = await startAgent("agent", ["tmux", "-S", socket, "attach", "-t", "agent"]);
    await expect
      .poll(() => tmux("list-clients", "-F", "#{client_pid}").trim(), { timeout: 15_000 })
      .not.toBe("");
    const pane = tmux("display-message", "-p", "-t", "agent", "#{pane_id}").trim();
    const panePid = Number(tmux("display-message", "-p", "-t", pane, "#{pane_pid}").trim());
    const serverPid = tmux("display-message", "-p", "#{pid}").trim();
    const env = {
      TMUX: `${socket},${serverPid},0`,
      TMUX_PANE: pane,
      TERM: "tmux-256color",
      LC_TERMINAL: "iTerm2",
      PATH: process.env.PATH ?? "",
    };
    await send(plain, env, panePid);
    const banner = utf8(
      `${ESC}]9;shop-api · Waiting for you: Claude needs your permission to use Bash${BEL}`,
    );
    await expect.poll(() => outside.received().includes(banner), { timeout: 10_000 }).toBe(true);
    expect(outside.received()).not.toContain("Ptmux;");
  });
});

describe("terminal sink's dry run and doctor", () => {
  it("renders the terminal, what it sends and the exact bytes", () => {
    const deps = testDeps({ TERM: "foot" });
    expect(terminal.render(plain, terminal.options.parse({}), deps)).toEqual({
      terminal: "foot",
      sends: ["osc777", "bell"],
      bytes: `${ESC}]777;notify;shop-api · Waiting for you;Claude needs your permission to use Bash${BEL}${BEL}`,
    });
  });
});
