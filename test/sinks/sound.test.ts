import { spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatNotification } from "../../src/message/format.js";
import type { Level, Notification } from "../../src/core/notification.js";
import { parseEvent } from "../../src/pipeline/parse-event.js";
import { findProgram } from "../../src/sinks/find-program.js";
import { sound } from "../../src/sinks/sound.js";
import { platformPlayers, SOUND_SCRIPT } from "../../src/sinks/sound-player.js";
import { bundle } from "../helpers/bundle.js";
import { fakeBin, type FakeBin, type FakeProgram } from "../helpers/fake-bin.js";
import { ROOT } from "../helpers/run-bin.js";
import { isRunning, sinkSender, tempDir } from "../helpers/sink-harness.js";
import { sampleNotification, testDeps } from "../helpers/sample-notification.js";

const isLinux = process.platform === "linux";
const FAKES = fileURLToPath(new URL("../fixtures/bin/", import.meta.url));
const EVENTS = join(ROOT, "test", "fixtures", "events");
const LEVELS: Level[] = ["attention", "done", "failure"];

// The Linux players in the order the sink tries them, with the fixed args each gets.
const LINUX_PLAYERS: [FakeProgram, string[]][] = [
  ["paplay", []],
  ["pw-play", []],
  ["aplay", ["-q"]],
  ["play", ["-q"]],
  ["ffplay", ["-nodisp", "-autoexit", "-loglevel", "quiet"]],
  ["mpv", ["--really-quiet", "--no-video"]],
];

function shipped(level: Level): string {
  return join(ROOT, "assets", "sounds", `${level}.wav`);
}

// A notification as the pipeline makes it from a captured hook payload.
function fromFixture(file: string): Notification {
  const event = parseEvent(readFileSync(join(EVENTS, file), "utf8"));
  if ("ignored" in event) throw new Error(`${file}: ignored event`);
  return formatNotification(
    event,
    { project: "shop-api", projectDir: "/home/dev/projects/shop-api", client: "claude-code" },
    { maxBodyLength: 500, id: "01JDX4Z8N3M6Q2T9V5W7Y0B1C3", now: Date.UTC(2026, 10, 22) },
  );
}

const done = sampleNotification({ event: "Stop", failure: false, level: "done" });
const { options, send } = sinkSender(sound, "beep");

// An executable script written by the test (for players the fixtures cannot act out).
function script(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

// Text that runs `touch <canary>` if it is ever evaluated by a shell, in every way we know.
function hostileText(canary: string): { title: string; body: string } {
  return {
    title: `-q "; touch ${canary}; echo " $(touch ${canary}) \`touch ${canary}\` 'it''s'`,
    body: [
      `"; touch $CANARY; echo "`,
      "$(touch $CANARY) `touch $CANARY` ${CANARY:+x} | touch $CANARY & touch $CANARY",
      `'single' "double" \\" back\\slash $HOME !! * --volume=100`,
    ].join("\n"),
  };
}

interface Wav {
  format: number;
  channels: number;
  sampleRate: number;
  byteRate: number;
  blockAlign: number;
  bitsPerSample: number;
  dataBytes: number;
}

// Reads a RIFF/WAVE file's chunks the way a player does; throws on anything malformed.
function parseWav(buffer: Buffer): Wav {
  expect(buffer.toString("ascii", 0, 4)).toBe("RIFF");
  expect(buffer.readUInt32LE(4)).toBe(buffer.length - 8);
  expect(buffer.toString("ascii", 8, 12)).toBe("WAVE");
  let fmt: Omit<Wav, "dataBytes"> | undefined;
  let dataBytes: number | undefined;
  for (let offset = 12; offset + 8 <= buffer.length;) {
    const id = buffer.toString("ascii", offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    const body = offset + 8;
    expect(body + size).toBeLessThanOrEqual(buffer.length);
    if (id === "fmt ") {
      fmt = {
        format: buffer.readUInt16LE(body),
        channels: buffer.readUInt16LE(body + 2),
        sampleRate: buffer.readUInt32LE(body + 4),
        byteRate: buffer.readUInt32LE(body + 8),
        blockAlign: buffer.readUInt16LE(body + 12),
        bitsPerSample: buffer.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      expect(fmt, "fmt chunk before data").toBeDefined();
      dataBytes = size;
    }
    offset = body + size + (size % 2);
  }
  if (!fmt || dataBytes === undefined) throw new Error("no fmt or data chunk");
  return { ...fmt, dataBytes };
}

describe("shipped sounds", () => {
  it.each(LEVELS)("%s.wav is a valid 16-bit PCM RIFF/WAVE file of under two seconds", (level) => {
    const wav = parseWav(readFileSync(shipped(level)));
    expect(wav).toMatchObject({ format: 1, channels: 1, bitsPerSample: 16 });
    expect(wav.blockAlign).toBe((wav.channels * wav.bitsPerSample) / 8);
    expect(wav.byteRate).toBe(wav.sampleRate * wav.blockAlign);
    expect(wav.dataBytes % wav.blockAlign).toBe(0);
    const seconds = wav.dataBytes / wav.byteRate;
    expect(seconds).toBeGreaterThan(0.1);
    expect(seconds).toBeLessThan(2);
  });

  it("are exactly what scripts/make-sounds.mjs generates", async () => {
    const dir = tempDir("sounds");
    mkdirSync(join(dir, "scripts"));
    mkdirSync(join(dir, "assets", "sounds"), { recursive: true });
    copyFileSync(join(ROOT, "scripts", "make-sounds.mjs"), join(dir, "scripts", "make-sounds.mjs"));
    const child = spawn(process.execPath, [join(dir, "scripts", "make-sounds.mjs")], {
      stdio: "ignore",
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    for (const level of LEVELS) {
      const generated = readFileSync(join(dir, "assets", "sounds", `${level}.wav`));
      expect(generated.equals(readFileSync(shipped(level))), `${level}.wav`).toBe(true);
    }
  });
});

describe.runIf(isLinux)("sound sink with recording fake players", () => {
  it.each<[string, string, Level]>([
    ["claude-code/Notification.json", "attention", "attention"],
    ["droid-documented/Notification-permission.json", "attention", "attention"],
    ["claude-code/Stop.json", "done", "done"],
    ["claude-code/SubagentStop.json", "done", "done"],
    ["droid-documented/SubagentStop.json", "done", "done"],
    ["claude-code/SessionEnd-prompt_input_exit.json", "done", "done"],
    ["claude-code/SessionEnd-other.json", "failure", "failure"],
  ])("plays %s as %s.wav", async (file, _name, level) => {
    const bin = fakeBin(["paplay"]);
    const notification = fromFixture(file);
    expect(notification.level).toBe(level);
    await send(notification, bin.env);
    expect(bin.calls()).toMatchObject([
      { program: "paplay", args: [shipped(level)], finished: true },
    ]);
  });

  it("plays the configured file for a level and the shipped one for the others", async () => {
    const bin = fakeBin(["aplay"]);
    const files = { done: "/home/dev/sounds/tada.wav", failure: "/home/dev/sounds/sad horn.wav" };
    for (const level of LEVELS) {
      await send(sampleNotification({ level }), bin.env, { files });
    }
    expect(bin.calls().map((call) => call.args)).toEqual([
      ["-q", shipped("attention")],
      ["-q", files.done],
      ["-q", files.failure],
    ]);
  });

  it.each(LINUX_PLAYERS.map(([name, args], index) => [name, args, index] as const))(
    "picks %s when no earlier player is on PATH, with args %j",
    async (name, args, index) => {
      const available = LINUX_PLAYERS.slice(index).map(([player]) => player);
      const bin = fakeBin(available);
      await send(done, bin.env);
      expect(bin.calls()).toMatchObject([{ program: name, args: [...args, shipped("done")] }]);
      expect(sound.render(done, options(), testDeps(bin.env))).toEqual({
        player: name,
        args: [...args, shipped("done")],
      });
    },
  );

  it("hands a configured relative file to the player as an absolute path, never as an option", async () => {
    const bin = fakeBin(["paplay"]);
    await send(done, bin.env, { files: { done: "-x.wav" } });
    expect(bin.calls()).toMatchObject([{ args: [join(process.cwd(), "-x.wav")] }]);
  });

  it("lists hook-notify's own players per platform for play-sound, in the order tried", () => {
    expect(platformPlayers(testDeps({}))).toEqual(LINUX_PLAYERS.map(([name]) => name));
    expect(platformPlayers({ ...testDeps({}), platform: "darwin" })).toEqual(["afplay"]);
    expect(platformPlayers({ ...testDeps({}), platform: "win32" })[0]).toBe("powershell.exe");
  });

  it("uses a configured player by name over the first one found, with that player's args", async () => {
    const bin = fakeBin(["paplay", "mpv"]);
    await send(done, bin.env, { player: "mpv" });
    expect(bin.calls()).toMatchObject([
      { program: "mpv", args: ["--really-quiet", "--no-video", shipped("done")] },
    ]);
  });

  it("puts configured playerArgs, instead of the built-in ones, before the file", async () => {
    const bin = fakeBin(["ffplay"]);
    await send(done, bin.env, { player: "ffplay", playerArgs: ["-nodisp", "-volume", "40"] });
    expect(bin.calls()).toMatchObject([
      { program: "ffplay", args: ["-nodisp", "-volume", "40", shipped("done")] },
    ]);
  });

  it("runs a configured player by absolute path (spaces and all) with its built-in args", async () => {
    const bin = fakeBin(["paplay"]);
    const dir = bin.scratch("Sound Players (local)");
    mkdirSync(dir);
    const player = join(dir, "aplay");
    symlinkSync(join(FAKES, "aplay"), player);
    await send(done, bin.env, { player });
    expect(bin.calls()).toMatchObject([{ args: ["-q", shipped("done")] }]);
    expect(sound.render(done, options({ player }), testDeps(bin.env))).toEqual({
      player,
      args: ["-q", shipped("done")],
    });
  });

  it("plays darwin's afplay with only the file", async () => {
    const bin = fakeBin(["afplay", "paplay"]);
    const deps = { ...testDeps(bin.env), platform: "darwin" as const };
    await sound.send(done, options(), {
      signal: AbortSignal.timeout(8_000),
      deps,
      sinkName: "beep",
      wait: true,
    });
    expect(bin.calls()).toMatchObject([{ program: "afplay", args: [shipped("done")] }]);
  });

  it("renders Windows PowerShell's SoundPlayer with the file in HOOK_NOTIFY_SOUND on Windows", () => {
    const bin = fakeBin([]);
    writeFileSync(join(bin.dir, "powershell.exe"), "");
    const deps = { ...testDeps({ PATH: bin.dir }), platform: "win32" as const };
    const rendered = sound.render(done, options(), deps) as { args: string[] };
    expect(rendered).toEqual({
      player: "powershell.exe",
      args: ["-NoProfile", "-NonInteractive", "-NoLogo", "-EncodedCommand", expect.any(String)],
      env: { HOOK_NOTIFY_SOUND: shipped("done") },
    });
    expect(Buffer.from(rendered.args[4] ?? "", "base64").toString("utf16le")).toBe(SOUND_SCRIPT);
  });

  it("renders for --dry-run the player and file it would play, and no player when none is found", () => {
    const bin = fakeBin(["pw-play"]);
    const failure = sampleNotification();
    expect(sound.render(failure, options(), testDeps(bin.env))).toEqual({
      player: "pw-play",
      args: [shipped("failure")],
    });
    expect(
      sound.render(failure, options({ files: { failure: "/x/boom.wav" } }), testDeps(bin.env)),
    ).toEqual({ player: "pw-play", args: ["/x/boom.wav"] });
    expect(sound.render(failure, options(), testDeps({ PATH: bin.scratch("none") }))).toEqual({
      player: null,
      args: [shipped("failure")],
    });
    expect(bin.calls()).toEqual([]);
  });

  it("passes only fixed args and the sound file, never event text, and runs none of it", async () => {
    const bin = fakeBin(["aplay"]);
    const canary = bin.scratch("canary");
    const text = hostileText(canary);
    const dir = bin.scratch("my players");
    mkdirSync(dir);
    const spaced = join(dir, "the aplay");
    symlinkSync(join(FAKES, "aplay"), spaced);
    const hostile = sampleNotification({ ...text, message: text.body, lastMessage: text.title });
    const env = { ...bin.env, CANARY: canary };
    await send(hostile, env);
    await send(hostile, env, { player: spaced });
    await send(hostile, env, { wait: false });
    await expect.poll(() => bin.calls().filter((call) => call.finished).length).toBe(3);
    expect(bin.calls().map((call) => call.args)).toEqual([
      ["-q", shipped("failure")],
      [shipped("failure")],
      ["-q", shipped("failure")],
    ]);
    expect(JSON.stringify(bin.calls())).not.toContain("touch");
    expect(existsSync(canary)).toBe(false);
  });

  it("is SINK_UNAVAILABLE with a one-line fix when no player is on PATH, and starts nothing", async () => {
    const bin = fakeBin(["kitty"]);
    const error = await send(done, bin.env).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SINK_UNAVAILABLE", sink: "beep", retryable: false });
    const { message } = error as Error;
    expect(message).not.toContain("\n");
    expect(message).toMatch(/apt install .*"player"/);
    expect(bin.calls()).toEqual([]);
  });

  it.each([
    ["a name", "vlc"],
    ["a path", "/opt/nowhere/vlc"],
  ])(
    "is SINK_UNAVAILABLE naming a configured player (%s) that is not there, without falling back",
    async (_kind, player) => {
      const bin = fakeBin(["paplay"]);
      const error = await send(done, bin.env, { player }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "SINK_UNAVAILABLE", retryable: false });
      expect((error as Error).message).toContain(player);
      expect((error as Error).message).not.toContain("\n");
      expect(bin.calls()).toEqual([]);
    },
  );

  it.each([true, false])(
    "rejects (wait: %s) rather than crashing when the player cannot be started (ENOENT)",
    async (wait) => {
      const bin = fakeBin([]);
      // Found on PATH, but exec fails with ENOENT, as for a player removed after the lookup.
      script(bin.dir, "paplay", "#!/nonexistent/interpreter\n");
      await expect(send(done, bin.env, { wait })).rejects.toMatchObject({
        code: "SINK_UNAVAILABLE",
        sink: "beep",
      });
    },
  );

  it.each([true, false])(
    "rejects an empty configured file name (wait: %s) without starting the player",
    async (wait) => {
      const bin = fakeBin(["paplay"]);
      await expect(send(done, bin.env, { wait, files: { done: "" } })).rejects.toMatchObject({
        code: "CONFIG_INVALID",
        retryable: false,
      });
      expect(bin.calls()).toEqual([]);
    },
  );

  it("fails with SINK_FAILED when the player exits non-zero and we wait", async () => {
    const bin = fakeBin(["aplay"], { exitCode: 1 });
    await expect(send(done, bin.env)).rejects.toMatchObject({
      code: "SINK_FAILED",
      sink: "beep",
    });
    expect(bin.calls()).toHaveLength(1);
  });

  it("fails with SINK_FAILED when the player dies from a signal and we wait", async () => {
    const bin = fakeBin([]);
    script(bin.dir, "paplay", "#!/bin/sh\nkill -KILL $$\n");
    await expect(send(done, bin.env)).rejects.toMatchObject({ code: "SINK_FAILED" });
  });

  it("reports a player that fails while the hook watches it as SINK_FAILED (hook path)", async () => {
    const bin = fakeBin(["aplay"], { exitCode: 3, env: { HOOK_NOTIFY_SETTLE_MS: "8000" } });
    await expect(send(done, bin.env, { wait: false })).rejects.toMatchObject({
      code: "SINK_FAILED",
    });
    expect(bin.calls()[0]?.finished).toBe(true);
  });

  it("resolves as started on the hook path while the player is still playing", async () => {
    const bin = fakeBin(["paplay"], { sleepMs: 5_000 });
    await expect(send(done, bin.env, { wait: false })).resolves.toEqual({ started: true });
    await expect.poll(() => bin.calls()).toHaveLength(1);
    const [call] = bin.calls();
    expect(call).toMatchObject({ program: "paplay", args: [shipped("done")], finished: false });
    expect(isRunning(call!.pid)).toBe(true);
    // fakeBin kills it when the test finishes.
  });

  it("stops a player that outlives the deadline and reports SINK_TIMEOUT", async () => {
    const bin = fakeBin(["aplay"], { sleepMs: 10_000 });
    await expect(send(done, bin.env, { ms: 1_000 })).rejects.toMatchObject({
      code: "SINK_TIMEOUT",
      sink: "beep",
    });
    const [call] = bin.calls();
    expect(call).toBeDefined();
    await expect.poll(() => isRunning(call!.pid), { timeout: 3_000 }).toBe(false);
    expect(bin.calls()[0]?.finished).toBe(false);
  });
});

describe.runIf(isLinux)("sound sink in its own process, as the hook runs it", () => {
  let entry = "";
  let cleanup = (): Promise<void> => Promise.resolve();
  beforeAll(async () => {
    const bundled = await bundle({ "sound-process": "test/helpers/sound-process.ts" });
    entry = bundled.files["sound-process"] ?? "";
    cleanup = bundled.cleanup;
  }, 30_000);
  afterAll(() => cleanup());

  function run(bin: FakeBin, args: string[]) {
    const child = spawn(process.execPath, [entry, ...args], {
      env: bin.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      child.on("close", (code) => {
        clearTimeout(killer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  it("ends while its detached player plays on: the child does not keep the hook alive", async () => {
    const bin = fakeBin(["paplay"], { sleepMs: 30_000 });
    const result = await run(bin, ["detached"]);
    expect(result).toEqual({ code: 0, stdout: JSON.stringify({ ok: true }), stderr: "" });
    await expect.poll(() => bin.calls()).toHaveLength(1);
    const [call] = bin.calls();
    expect(call).toMatchObject({ program: "paplay", args: [shipped("done")], finished: false });
    expect(isRunning(call!.pid)).toBe(true);
  });

  it.each(["detached", "wait"])(
    "returns SINK_UNAVAILABLE and exits normally (%s) when the player cannot be started",
    async (mode) => {
      const bin = fakeBin([], { real: { node: process.execPath } });
      script(bin.dir, "paplay", "#!/nonexistent/interpreter\n");
      const result = await run(bin, [mode]);
      expect(result).toEqual({
        code: 0,
        stdout: JSON.stringify({ ok: false, code: "SINK_UNAVAILABLE" }),
        stderr: "",
      });
    },
  );

  it("reports a detached player that fails while watched, and exits normally", async () => {
    const bin = fakeBin(["aplay"], { exitCode: 1, env: { HOOK_NOTIFY_SETTLE_MS: "8000" } });
    const result = await run(bin, ["detached"]);
    expect(result).toEqual({
      code: 0,
      stdout: JSON.stringify({ ok: false, code: "SINK_FAILED" }),
      stderr: "",
    });
  });
});

// Real players, to the ALSA null device: no sound card is needed, but the file is really decoded.
const realPlayers = {
  aplay: isLinux ? findProgram("aplay", process.env, "linux") : undefined,
  play: isLinux ? findProgram("play", process.env, "linux") : undefined,
};
const missingPlayers = Object.entries(realPlayers)
  .filter(([, path]) => !path)
  .map(([name]) => name);

describe.runIf(isLinux && missingPlayers.length > 0 && process.env.CI === "true")(
  "sound sink test prerequisites",
  () => {
    it("has aplay and play installed in CI", () => {
      expect.fail(
        `missing: ${missingPlayers.join(", ")}. Install with: apt-get install alsa-utils sox`,
      );
    });
  },
);

describe.runIf(isLinux && realPlayers.play)("sound sink with a real sox play", () => {
  const real = { play: realPlayers.play ?? "" };

  it.each(LEVELS)("decodes and plays %s.wav to the null device", async (level) => {
    const bin = fakeBin([], { real, env: { AUDIODEV: "null" } });
    expect(sound.render(sampleNotification({ level }), options(), testDeps(bin.env))).toEqual({
      player: "play",
      args: ["-q", shipped(level)],
    });
    await expect(send(sampleNotification({ level }), bin.env)).resolves.toBeUndefined();
  });

  it("fails with SINK_FAILED on a file that is not a WAV", async () => {
    const bin = fakeBin([], { real, env: { AUDIODEV: "null" } });
    const broken = bin.scratch("broken.wav");
    writeFileSync(broken, "not audio at all\n");
    await expect(send(done, bin.env, { files: { done: broken } })).rejects.toMatchObject({
      code: "SINK_FAILED",
    });
  });

  it("plays hostile notifications without running any of their text", async () => {
    const bin = fakeBin([], { real, env: { AUDIODEV: "null" } });
    const canary = bin.scratch("canary");
    await send(sampleNotification(hostileText(canary)), { ...bin.env, CANARY: canary });
    expect(existsSync(canary)).toBe(false);
  });
});

describe.runIf(isLinux && realPlayers.aplay)("sound sink with a real aplay", () => {
  const aplay = realPlayers.aplay ?? "";

  it.each(LEVELS)("plays %s.wav to the null device chosen with playerArgs", async (level) => {
    const bin = fakeBin([], { real: { aplay } });
    const opts = { player: "aplay", playerArgs: ["-q", "-D", "null"] };
    await expect(send(sampleNotification({ level }), bin.env, opts)).resolves.toBeUndefined();
  });

  it("accepts the default args (-q) when found on PATH (a wrapper picks the null device)", async () => {
    const bin = fakeBin([]);
    script(bin.dir, "aplay", `#!/bin/sh\nexec '${aplay}' -D null "$@"\n`);
    await expect(send(done, bin.env)).resolves.toBeUndefined();
  });

  it("fails with SINK_FAILED when the configured file does not exist", async () => {
    const bin = fakeBin([], { real: { aplay } });
    const opts = {
      player: "aplay",
      playerArgs: ["-q", "-D", "null"],
      files: { done: bin.scratch("missing.wav") },
    };
    await expect(send(done, bin.env, opts)).rejects.toMatchObject({ code: "SINK_FAILED" });
  });
});
