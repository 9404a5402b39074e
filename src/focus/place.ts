// Where the agent runs, as the hook's environment tells (link/hook-env.ts carries these variables
// to the worker): the tmux or zellij pane, the kitty window or WezTerm pane, the X11 terminal
// window, the Wayland compositor, the macOS terminal app, Windows Terminal. Pure. Every value is checked strictly before anything uses it:
// a value that does not look right is left out, never passed on.
import { tmuxPaneOf, type TmuxPane } from "../tmux-pane.js";
import { own } from "../own.js";

/** The place a banner's click brings back; each part is set only when it was valid. */
export interface FocusPlace {
  /** The tmux server's socket and the agent's pane ("%12"). */
  tmux?: TmuxPane | undefined;
  /** X11: the terminal's window id from WINDOWID (decimal), outside tmux only. */
  x11Window?: string | undefined;
  /** "x11", or the Wayland compositor that can focus a window by pid ("sway", "hyprland"),
   * or "wayland" for one that cannot be asked (GNOME, KDE). */
  display?: "x11" | "sway" | "hyprland" | "wayland" | undefined;
  /** The agent's process (the hook's parent): its ancestors include the terminal. */
  pid?: number | undefined;
  /** macOS: the bundle id of the terminal app (com.apple.Terminal, com.googlecode.iterm2, …). */
  macBundleId?: string | undefined;
  /** Windows: the agent runs in Windows Terminal (WT_SESSION is set). */
  windowsTerminal?: boolean | undefined;
  /** zellij: its session and the agent's pane (ZELLIJ_SESSION_NAME, ZELLIJ_PANE_ID). */
  zellij?: { session: string; pane: string } | undefined;
  /** kitty: the agent's window (KITTY_WINDOW_ID) and its remote-control socket (KITTY_LISTEN_ON,
   * a unix socket only); outside tmux. */
  kitty?: { window: string; to: string } | undefined;
  /** WezTerm: the agent's pane (WEZTERM_PANE); outside tmux. */
  wezterm?: { pane: string } | undefined;
  /** macOS iTerm2: the unique id of the agent's session (the UUID in ITERM_SESSION_ID,
   * "w0t1p0:<UUID>"); outside tmux. */
  itermSession?: string | undefined;
}

const WINDOW_ID = /^\d{1,10}$/;
const BUNDLE_ID = /^[A-Za-z0-9][A-Za-z0-9-]*(\.[A-Za-z0-9][A-Za-z0-9-]*){1,10}$/;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const NUMBER_ID = /^\d{1,9}$/;
/** ITERM_SESSION_ID: window, tab and pane, then the session's unique id (a UUID). */
const ITERM_SESSION =
  /^w\d{1,4}t\d{1,4}p\d{1,4}:([0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12})$/;
const ZELLIJ_SESSION = /^[A-Za-z0-9][\w.-]{0,99}$/;
/** kitty's listen_on as it sets KITTY_LISTEN_ON: a unix socket, by path or abstract name (control
 * characters as their ranges: see tmux-pane.ts). */
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const KITTY_SOCKET = /^unix:(@[\w.-]{1,200}|\/[^\x00-\x1f\x7f-\x9f,;]{1,1000})$/u;

/** TERM_PROGRAM values of macOS terminals, and their bundle ids. */
const MAC_TERMINALS: Readonly<Record<string, string>> = {
  Apple_Terminal: "com.apple.Terminal",
  "iTerm.app": "com.googlecode.iterm2",
  WezTerm: "com.github.wez.wezterm",
  ghostty: "com.mitchellh.ghostty",
  vscode: "com.microsoft.VSCode",
  Hyper: "co.zeit.hyper",
  Tabby: "org.tabby",
};

type Env = Readonly<Record<string, string | undefined>>;

// The place of the agent whose hook had this environment and parent process.
export function findPlace(env: Env, platform: NodeJS.Platform, pid?: number): FocusPlace {
  const place: FocusPlace = {};
  if (pid !== undefined && Number.isInteger(pid) && pid > 1) place.pid = pid;
  place.tmux = tmuxPaneOf(env);
  Object.assign(place, terminalPaneOf(env, place.tmux !== undefined));
  if (platform === "darwin") {
    place.macBundleId = bundleIdOf(env);
    // Inside tmux, ITERM_SESSION_ID is the session that started the tmux server: left out.
    if (!place.tmux) place.itermSession = ITERM_SESSION.exec(env.ITERM_SESSION_ID ?? "")?.[1];
  } else if (platform === "win32" || env.WSL_DISTRO_NAME) {
    if (env.WT_SESSION && GUID.test(env.WT_SESSION)) place.windowsTerminal = true;
  } else {
    place.display = displayOf(env);
    // Inside tmux, WINDOWID is the tmux server's, inherited from whichever terminal started it.
    if (!place.tmux && place.display === "x11" && env.WINDOWID && WINDOW_ID.test(env.WINDOWID))
      place.x11Window = env.WINDOWID;
  }
  return place;
}

// The terminal's own tab or pane, from the variables it sets in the agent's environment. Inside
// tmux, kitty's and WezTerm's are the tmux server's (inherited from whichever terminal started it):
// left out, as WINDOWID is. zellij's is its own pane, whatever the terminal.
function terminalPaneOf(env: Env, inTmux: boolean): Partial<FocusPlace> {
  const out: Partial<FocusPlace> = {};
  const session = env.ZELLIJ_SESSION_NAME;
  const pane = env.ZELLIJ_PANE_ID;
  if (session && pane && ZELLIJ_SESSION.test(session) && NUMBER_ID.test(pane))
    out.zellij = { session, pane };
  if (!inTmux) {
    const window = env.KITTY_WINDOW_ID;
    const to = env.KITTY_LISTEN_ON;
    if (window && to && NUMBER_ID.test(window) && KITTY_SOCKET.test(to)) out.kitty = { window, to };
    const wezterm = env.WEZTERM_PANE;
    if (wezterm && NUMBER_ID.test(wezterm)) out.wezterm = { pane: wezterm };
  }
  return out;
}

function bundleIdOf(env: Env): string | undefined {
  const bundle = env.__CFBundleIdentifier;
  if (bundle && BUNDLE_ID.test(bundle)) return bundle;
  const known = env.TERM_PROGRAM ? own(MAC_TERMINALS, env.TERM_PROGRAM) : undefined;
  return known;
}

function displayOf(env: Env): FocusPlace["display"] {
  if (env.WAYLAND_DISPLAY || env.XDG_SESSION_TYPE === "wayland") {
    if (env.SWAYSOCK) return "sway";
    if (env.HYPRLAND_INSTANCE_SIGNATURE) return "hyprland";
    return "wayland";
  }
  return env.DISPLAY ? "x11" : undefined;
}

// Why a click could bring nothing back here, or undefined when it can. `has` looks a program up
// on PATH (cheap): this is asked when the banner is sent.
export function linuxFocusGap(
  place: FocusPlace,
  has: (program: string) => boolean,
): string | undefined {
  if (place.tmux && has("tmux")) return undefined;
  if (place.kitty && has("kitty")) return undefined;
  if (place.wezterm && has("wezterm")) return undefined;
  const window = windowGap(place, has);
  if (!window) return undefined;
  return place.tmux ? `tmux is not on PATH, and ${window}` : window;
}

function windowGap(place: FocusPlace, has: (program: string) => boolean): string | undefined {
  switch (place.display) {
    case "x11":
      if (has("xdotool") || (place.x11Window && has("wmctrl"))) return undefined;
      return "xdotool is not installed (it raises the terminal window on X11)";
    case "sway":
      return has("swaymsg") ? undefined : "swaymsg is not on PATH";
    case "hyprland":
      return has("hyprctl") ? undefined : "hyprctl is not on PATH";
    case "wayland":
      return "this Wayland compositor (GNOME, KDE) lets no other program raise a window, and the agent is not in tmux";
    case undefined:
      return "the agent runs in no tmux pane and on no display";
  }
}

// One line for the log and doctor: what a click brings back.
export function describePlace(place: FocusPlace): string {
  const parts: string[] = [];
  if (place.zellij) parts.push(`zellij pane ${place.zellij.pane}`);
  if (place.tmux) parts.push(`tmux pane ${place.tmux.pane}`);
  if (place.kitty) parts.push(`kitty window ${place.kitty.window}`);
  if (place.wezterm) parts.push(`WezTerm pane ${place.wezterm.pane}`);
  if (place.x11Window) parts.push(`X11 window ${place.x11Window}`);
  else if (place.display === "x11" || place.display === "sway" || place.display === "hyprland")
    parts.push(`the terminal window (${place.display}, by process)`);
  if (place.itermSession) parts.push(`iTerm2 session ${place.itermSession}`);
  if (place.macBundleId) parts.push(place.macBundleId);
  if (place.windowsTerminal) parts.push("Windows Terminal");
  return parts.join(" and ");
}
