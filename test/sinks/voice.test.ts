// The voice sink: which speech program it picks per platform, in what order, and the argument
// array it runs; event text is one argument (or, for PowerShell, an environment variable), never
// a shell's. Linux runs here (fake programs that log their argv); macOS and Windows are SIMULATED
// (deps.platform set, the same fakes): their argument lists are checked, no real `say` or SAPI.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SPEAK_SCRIPT, voice } from "../../src/sinks/voice.js";
import { fakeBin } from "../helpers/fake-bin.js";
import { sampleNotification, testDeps } from "../helpers/sample-notification.js";
import { sinkSender } from "../helpers/sink-harness.js";

const { options, send } = sinkSender(voice, "speak");
const done = sampleNotification({ level: "done", title: "shop-api · Claude finished" });

describe("voice sink", () => {
  it("Linux: spd-say first (waits for the speech), the title as the last argument", async () => {
    const bin = fakeBin(["spd-say"]);
    await send(done, bin.env);
    expect(bin.calls()).toMatchObject([
      { program: "spd-say", args: ["--wait", "shop-api · Claude finished"] },
    ]);
  });

  it("Linux: espeak-ng when spd-say is missing, with the voice option; a configured program wins", () => {
    const bin = fakeBin([]);
    writeFileSync(join(bin.dir, "espeak-ng"), "#!/bin/sh\n", { mode: 0o755 });
    const rendered = voice.render(done, options({ voice: "en-us" }), testDeps(bin.env));
    expect(rendered).toEqual({ program: "espeak-ng", args: ["-v", "en-us", done.title] });
    const both = fakeBin(["spd-say"]);
    writeFileSync(join(both.dir, "espeak-ng"), "#!/bin/sh\n", { mode: 0o755 });
    expect(voice.render(done, options(), testDeps(both.env))).toEqual({
      program: "spd-say",
      args: ["--wait", done.title],
    });
    const chosen = voice.render(done, options({ program: "espeak-ng" }), testDeps(both.env));
    expect(chosen).toEqual({ program: "espeak-ng", args: [done.title] });
  });

  it("with HOOK_NOTIFY_VOICE_FILE, only a program that writes files is chosen (espeak-ng -w)", () => {
    const bin = fakeBin(["spd-say"]);
    const env = { PATH: bin.dir, HOOK_NOTIFY_VOICE_FILE: "/tmp/said.wav" };
    expect(voice.render(done, options(), testDeps(env))).toEqual({
      program: null,
      text: done.title,
    });
    writeFileSync(join(bin.dir, "espeak-ng"), "#!/bin/sh\n", { mode: 0o755 });
    expect(voice.render(done, options(), testDeps(env))).toEqual({
      program: "espeak-ng",
      args: ["-w", "/tmp/said.wav", done.title],
    });
  });

  it("macOS (simulated): say with the title as its one argument", async () => {
    const bin = fakeBin(["say", "spd-say"]);
    const deps = { ...testDeps(bin.env), platform: "darwin" as const };
    await voice.send(done, options({ voice: "Samantha" }), {
      signal: AbortSignal.timeout(8_000),
      deps,
      sinkName: "speak",
      wait: true,
    });
    expect(bin.calls()).toMatchObject([{ program: "say", args: ["-v", "Samantha", done.title] }]);
  });

  it("Windows (simulated): PowerShell's fixed System.Speech script, the text in HOOK_NOTIFY_SPEAK", async () => {
    const bin = fakeBin(["powershell.exe"]);
    const deps = { ...testDeps(bin.env), platform: "win32" as const };
    await voice.send(done, options(), {
      signal: AbortSignal.timeout(8_000),
      deps,
      sinkName: "speak",
      wait: true,
    });
    const [call] = bin.calls();
    expect(call).toMatchObject({
      program: "powershell.exe",
      args: ["-NoProfile", "-NonInteractive", "-NoLogo", "-EncodedCommand", expect.any(String)],
      env: { HOOK_NOTIFY_SPEAK: done.title },
    });
    expect(Buffer.from(call?.args[4] ?? "", "base64").toString("utf16le")).toBe(SPEAK_SCRIPT);
    expect(SPEAK_SCRIPT).not.toContain(done.title);
  });

  it("WSL (simulated): PowerShell through interop, HOOK_NOTIFY_SPEAK named in WSLENV", async () => {
    const bin = fakeBin(["powershell.exe", "spd-say"]);
    const deps = {
      ...testDeps({ ...bin.env, WSL_DISTRO_NAME: "Debian" }),
      platform: "linux" as const,
    };
    await voice.send(done, options(), {
      signal: AbortSignal.timeout(8_000),
      deps,
      sinkName: "speak",
      wait: true,
    });
    expect(bin.calls()).toMatchObject([
      {
        program: "powershell.exe",
        env: { HOOK_NOTIFY_SPEAK: done.title, WSLENV: "HOOK_NOTIFY_SPEAK" },
      },
    ]);
  });

  it("hostile text is one argument, never run; a leading dash is not an option", async () => {
    const bin = fakeBin(["spd-say"]);
    const canary = bin.scratch("canary");
    const title = `-q "; touch ${canary}; echo " $(touch ${canary}) \`touch ${canary}\``;
    await send(sampleNotification({ title }), { ...bin.env, CANARY: canary });
    expect(bin.calls()).toMatchObject([{ args: ["--wait", ` ${title}`] }]);
    expect(existsSync(canary)).toBe(false);
  });

  it("says which program is missing and what to install", async () => {
    const bin = fakeBin([]);
    await expect(send(done, { PATH: bin.dir })).rejects.toThrow(
      /no speech program found \(tried spd-say, espeak-ng, espeak\).*apt install espeak-ng/,
    );
  });
});
