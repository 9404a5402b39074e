import { describe, expect, it } from "vitest";
import { describePlace, findPlace, linuxFocusGap } from "../../src/focus/place.js";

const TMUX = { TMUX: "/tmp/tmux-1000/default,4242,0", TMUX_PANE: "%12" };

describe("findPlace", () => {
  it("takes the tmux socket and pane, and the X11 window outside tmux", () => {
    expect(findPlace({ ...TMUX, DISPLAY: ":0", WINDOWID: "73400327" }, "linux", 999)).toEqual({
      pid: 999,
      tmux: { socket: "/tmp/tmux-1000/default", pane: "%12" },
      display: "x11",
    });
    expect(findPlace({ DISPLAY: ":0", WINDOWID: "73400327" }, "linux")).toMatchObject({
      display: "x11",
      x11Window: "73400327",
    });
  });

  it.each([
    ["a pane id that is not %N", { ...TMUX, TMUX_PANE: "%1; kill-server" }],
    ["a pane id with a newline", { ...TMUX, TMUX_PANE: "%1\n" }],
    ["a relative socket", { ...TMUX, TMUX: "sock,1,0" }],
    ["a socket with a control character", { ...TMUX, TMUX: "/tmp/a\u0007b,1,0" }],
    ["no TMUX_PANE", { TMUX: TMUX.TMUX }],
  ])("leaves out %s", (_what, env) => {
    expect(findPlace(env, "linux").tmux).toBeUndefined();
  });

  it("leaves out a WINDOWID that is not a number, and one inside tmux (the server's, stale)", () => {
    expect(findPlace({ DISPLAY: ":0", WINDOWID: "0x4600007" }, "linux").x11Window).toBeUndefined();
    expect(findPlace({ ...TMUX, DISPLAY: ":0", WINDOWID: "5" }, "linux").x11Window).toBeUndefined();
  });

  it("names the Wayland compositor that can focus by pid, and the one that cannot", () => {
    const wayland = { WAYLAND_DISPLAY: "wayland-0", DISPLAY: ":0" };
    expect(findPlace({ ...wayland, SWAYSOCK: "/run/sway" }, "linux").display).toBe("sway");
    expect(findPlace({ ...wayland, HYPRLAND_INSTANCE_SIGNATURE: "x" }, "linux").display).toBe(
      "hyprland",
    );
    expect(findPlace(wayland, "linux").display).toBe("wayland");
  });

  it("macOS: the app's own bundle id, else the one TERM_PROGRAM names; junk is left out", () => {
    expect(findPlace({ __CFBundleIdentifier: "com.googlecode.iterm2" }, "darwin")).toEqual({
      macBundleId: "com.googlecode.iterm2",
    });
    expect(findPlace({ TERM_PROGRAM: "Apple_Terminal" }, "darwin").macBundleId).toBe(
      "com.apple.Terminal",
    );
    expect(findPlace({ __CFBundleIdentifier: "x; rm -rf ~" }, "darwin").macBundleId).toBe(
      undefined,
    );
    expect(findPlace({ TERM_PROGRAM: "unknown" }, "darwin").macBundleId).toBeUndefined();
  });

  it("Windows and WSL: Windows Terminal by a WT_SESSION that is a GUID", () => {
    const session = "3f1d2c4b-1a2b-4c3d-9e8f-0123456789ab";
    expect(findPlace({ WT_SESSION: session }, "win32").windowsTerminal).toBe(true);
    expect(findPlace({ WT_SESSION: session, WSL_DISTRO_NAME: "U" }, "linux").windowsTerminal).toBe(
      true,
    );
    expect(findPlace({ WT_SESSION: "x" }, "win32").windowsTerminal).toBeUndefined();
  });
});

describe("linuxFocusGap", () => {
  const has =
    (...programs: string[]) =>
    (program: string) =>
      programs.includes(program);

  it("none with tmux, or with the program that raises windows on this display", () => {
    expect(linuxFocusGap(findPlace(TMUX, "linux"), has("tmux"))).toBeUndefined();
    expect(linuxFocusGap(findPlace({ DISPLAY: ":0" }, "linux"), has("xdotool"))).toBeUndefined();
    const sway = findPlace({ WAYLAND_DISPLAY: "w", SWAYSOCK: "/s" }, "linux");
    expect(linuxFocusGap(sway, has("swaymsg"))).toBeUndefined();
  });

  it("says why a click could bring nothing back", () => {
    expect(linuxFocusGap(findPlace({ DISPLAY: ":0" }, "linux"), has())).toMatch(/xdotool/);
    expect(linuxFocusGap(findPlace({ WAYLAND_DISPLAY: "w" }, "linux"), has())).toMatch(
      /Wayland compositor/,
    );
    expect(linuxFocusGap(findPlace({}, "linux"), has())).toMatch(/no tmux pane/);
    expect(linuxFocusGap(findPlace(TMUX, "linux"), has())).toMatch(/^tmux is not on PATH/);
  });

  it("describes the place for the log", () => {
    expect(describePlace(findPlace({ ...TMUX, DISPLAY: ":0" }, "linux"))).toBe(
      "tmux pane %12 and the terminal window (x11, by process)",
    );
  });
});

describe("findPlace: the terminal's own tab or pane", () => {
  const terminal = {
    KITTY_WINDOW_ID: "7",
    KITTY_LISTEN_ON: "unix:/tmp/kitty-4242",
    WEZTERM_PANE: "3",
    ZELLIJ_SESSION_NAME: "bold-raccoon",
    ZELLIJ_PANE_ID: "4",
  };

  it("takes zellij's session and pane, kitty's window and socket, WezTerm's pane", () => {
    expect(findPlace(terminal, "linux")).toMatchObject({
      zellij: { session: "bold-raccoon", pane: "4" },
      kitty: { window: "7", to: "unix:/tmp/kitty-4242" },
      wezterm: { pane: "3" },
    });
    expect(findPlace({ ...terminal, KITTY_LISTEN_ON: "unix:@mykitty" }, "linux").kitty).toEqual({
      window: "7",
      to: "unix:@mykitty",
    });
  });

  it("leaves out every value that does not look right, and kitty's and WezTerm's inside tmux", () => {
    const bad = {
      KITTY_WINDOW_ID: "7; rm -rf ~",
      KITTY_LISTEN_ON: "tcp:evil.example:1234",
      WEZTERM_PANE: "-3",
      ZELLIJ_SESSION_NAME: "--help",
      ZELLIJ_PANE_ID: "terminal_4",
    };
    const place = findPlace(bad, "linux");
    for (const key of ["kitty", "wezterm", "zellij"] as const) expect(place[key]).toBeUndefined();
    expect(
      findPlace({ ...terminal, KITTY_WINDOW_ID: "7", KITTY_LISTEN_ON: "unix:/a\nb" }, "linux")
        .kitty,
    ).toBeUndefined();
    const inTmux = findPlace({ ...terminal, TMUX: "/tmp/t/default,1,0", TMUX_PANE: "%3" }, "linux");
    expect(inTmux).toMatchObject({ zellij: { pane: "4" } });
    expect(inTmux.kitty).toBeUndefined();
    expect(inTmux.wezterm).toBeUndefined();
  });

  it("with kitty or wezterm on PATH a click has something to do, even on GNOME's Wayland", () => {
    const place = findPlace({ ...terminal, WAYLAND_DISPLAY: "wayland-0" }, "linux");
    expect(linuxFocusGap(place, (program) => program === "kitty")).toBeUndefined();
    expect(linuxFocusGap(place, () => false)).toMatch(/Wayland compositor/);
    expect(describePlace(place)).toBe("zellij pane 4 and kitty window 7 and WezTerm pane 3");
  });
});
