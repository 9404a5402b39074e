import { describe, expect, it } from "vitest";
import { probePresence } from "../../src/presence/probe.js";
import { readTmux } from "../../src/presence/tmux.js";
import { hasTmux, startRealTmux } from "../helpers/real-tmux.js";

const ask = (env: Record<string, string>) =>
  probePresence({
    env: { PATH: process.env.PATH ?? "", ...env },
    pid: process.pid,
    idleSeconds: 300,
    signal: AbortSignal.timeout(10_000),
    platform: "linux",
    timeoutMs: 5000,
  });

describe.runIf(hasTmux)("the tmux probe against a real tmux server", () => {
  it("present while the pane is active in a focused client, away once it is not", async () => {
    const tmux = await startRealTmux();
    const present = await ask(tmux.env);
    expect(present).toMatchObject({ state: "present", probe: "tmux" });
    expect(present.readings[0]?.clientPids?.length).toBe(1);

    tmux.tmux("new-window", "-t", "agent");
    const otherWindow = await ask(tmux.env);
    expect(otherWindow).toMatchObject({ state: "away", probe: "tmux" });
    expect(otherWindow.detail).toContain("window");

    tmux.tmux("select-window", "-t", "agent:0");
    expect((await ask(tmux.env)).state).toBe("present");
    await tmux.focus(false);
    const unfocused = await ask(tmux.env);
    expect(unfocused).toMatchObject({ state: "away", probe: "tmux" });
    expect(unfocused.detail).toContain("focus");
    await tmux.focus(true);
    expect((await ask(tmux.env)).state).toBe("present");
  });

  it("a detached session is away; a dead server is unknown", async () => {
    const tmux = await startRealTmux();
    tmux.tmux("detach-client", "-s", "agent");
    expect(await ask(tmux.env)).toMatchObject({ state: "away", probe: "tmux" });
    tmux.tmux("kill-server");
    expect(await ask(tmux.env)).toMatchObject({ state: "unknown", probe: "none" });
  });
});

describe("readTmux", () => {
  const now = 1_000_000_000;
  const line = (flags: string, activity = now / 1000 - 7) =>
    `4242\t${String(activity)}\t${flags}\tagent`;
  it.each([
    ["1\t1\tagent", [line("attached,focused")], true, "focused client"],
    ["0\t1\tagent", [line("attached,focused")], false, "not active"],
    ["1\t0\tagent", [line("attached,focused")], false, "window"],
    ["1\t1\tagent", [], false, "no client"],
    ["1\t1\tagent", [line("attached")], false, "focus"],
  ])("%j with %j → focused %s", (first, clients, focused, detail) => {
    const reading = readTmux([first, ...clients].join("\n"), "%0", now);
    expect(reading.focused).toBe(focused);
    expect(reading.detail).toContain(detail);
  });

  it("counts idle seconds from the client's last activity and ignores other sessions", () => {
    const out = ["1\t1\tagent", line("attached,focused"), `99\t1\tattached,focused\tother`].join(
      "\n",
    );
    expect(readTmux(out, "%0", now)).toMatchObject({ idleSeconds: 7, clientPids: [4242] });
  });
});
