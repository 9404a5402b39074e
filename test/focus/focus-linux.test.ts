// The click's steps with a recording runner: the argv each program gets, in order.
import { describe, expect, it } from "vitest";
import { clientPidsOf, focusLinux, type RunFocusProgram } from "../../src/focus/focus-linux.js";
import { findPlace } from "../../src/focus/place.js";

function recorder(answers: Record<string, string | undefined>) {
  const calls: string[][] = [];
  const run: RunFocusProgram = (file, args) => {
    calls.push([file, ...args]);
    const key = [file, ...args].join(" ");
    const hit = Object.entries(answers).find(([prefix]) => key.startsWith(prefix));
    return Promise.resolve(
      hit?.[1] === undefined
        ? { ok: false, stdout: "", problem: "exit 1" }
        : { ok: true, stdout: hit[1] },
    );
  };
  return { run, calls };
}

// 100 → 50 → 10 → 1: the agent, its shell, the terminal.
const parents: Record<number, number> = { 100: 50, 50: 10, 10: 1, 700: 600, 600: 10 };
const parentOf = (pid: number) => Promise.resolve(parents[pid]);

describe("focusLinux", () => {
  it("tmux: selects the window and pane, then raises the window of the client's terminal", async () => {
    const place = findPlace(
      { TMUX: "/tmp/t/default,1,0", TMUX_PANE: "%3", DISPLAY: ":0" },
      "linux",
      100,
    );
    const { run, calls } = recorder({
      "tmux -S /tmp/t/default select-window": "",
      "tmux -S /tmp/t/default display-message": "work\n700\twork\n800\tother\n",
      "xdotool search --pid 10": "4194311\n",
      "xdotool windowactivate 4194311": "",
    });
    const done = await focusLinux(place, run, parentOf);
    expect(calls.slice(0, 2)).toEqual([
      ["tmux", "-S", "/tmp/t/default", "select-window", "-t", "%3", ";", "select-pane", "-t", "%3"],
      [
        "tmux",
        "-S",
        "/tmp/t/default",
        "display-message",
        "-p",
        "-t",
        "%3",
        "#{session_name}",
        ";",
        "list-clients",
        "-F",
        "#{client_pid}\t#{client_session}",
      ],
    ]);
    // The client 700's ancestors, nearest first, until one has a window.
    expect(calls.slice(2).map((call) => call.join(" "))).toEqual([
      "xdotool search --pid 700",
      "xdotool search --pid 600",
      "xdotool search --pid 10",
      "xdotool windowactivate 4194311",
    ]);
    expect(done).toEqual(["tmux pane %3 selected", "X11 window 4194311 of pid 10 raised"]);
  });

  it("X11 outside tmux: WINDOWID, with wmctrl when xdotool fails", async () => {
    const place = findPlace({ DISPLAY: ":0", WINDOWID: "73400327" }, "linux", 100);
    const { run, calls } = recorder({ "wmctrl -i -a 0x4600007": "" });
    expect(await focusLinux(place, run, parentOf)).toEqual(["X11 window 73400327 raised (wmctrl)"]);
    expect(calls).toEqual([
      ["xdotool", "windowactivate", "73400327"],
      ["wmctrl", "-i", "-a", "0x4600007"],
    ]);
  });

  it("sway and Hyprland: focus by the pid of the agent's nearest ancestor with a window", async () => {
    const sway = findPlace({ WAYLAND_DISPLAY: "w", SWAYSOCK: "/s" }, "linux", 100);
    const swayRun = recorder({ "swaymsg [pid=50] focus": "" });
    expect(await focusLinux(sway, swayRun.run, parentOf)).toEqual([
      "sway window of pid 50 focused",
    ]);
    const hypr = findPlace(
      { WAYLAND_DISPLAY: "w", HYPRLAND_INSTANCE_SIGNATURE: "x" },
      "linux",
      100,
    );
    const hyprRun = recorder({ "hyprctl dispatch focuswindow pid:100": "ok\n" });
    expect(await focusLinux(hypr, hyprRun.run, parentOf)).toEqual([
      "Hyprland window of pid 100 focused",
    ]);
  });

  it("GNOME or KDE on Wayland: nothing is asked of the compositor", async () => {
    const { run, calls } = recorder({});
    const place = findPlace({ WAYLAND_DISPLAY: "w" }, "linux", 100);
    expect(await focusLinux(place, run, parentOf)).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe("clientPidsOf", () => {
  it("keeps the clients of the pane's session only", () => {
    expect(clientPidsOf("a\n12\ta\n13\tb\nx\ta\n14\ta\n")).toEqual([12, 14]);
    expect(clientPidsOf("")).toEqual([]);
  });
});
