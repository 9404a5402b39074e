// Where the agent runs, as the hook's environment tells (link/hook-env.ts carries these variables
// to the worker): the tmux pane, the X11 terminal window, the Wayland compositor, the macOS
// terminal app, Windows Terminal. Pure. Every value is checked strictly before anything uses it:
// a value that does not look right is left out, never passed on.

/** The place a banner's click brings back; each part is set only when it was valid. */
export interface FocusPlace {
  /** The tmux server's socket and the agent's pane ("%12"). */
  tmux?: { socket: string; pane: string } | undefined;
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
}

const PANE = /^%\d{1,9}$/;
const WINDOW_ID = /^\d{1,10}$/;
const BUNDLE_ID = /^[A-Za-z0-9][A-Za-z0-9-]*(\.[A-Za-z0-9][A-Za-z0-9-]*){1,10}$/;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

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
  place.tmux = tmuxOf(env);
  if (platform === "darwin") place.macBundleId = bundleIdOf(env);
  else if (platform === "win32" || env.WSL_DISTRO_NAME) {
    if (env.WT_SESSION && GUID.test(env.WT_SESSION)) place.windowsTerminal = true;
  } else {
    place.display = displayOf(env);
    // Inside tmux, WINDOWID is the tmux server's, inherited from whichever terminal started it.
    if (!place.tmux && place.display === "x11" && env.WINDOWID && WINDOW_ID.test(env.WINDOWID))
      place.x11Window = env.WINDOWID;
  }
  return place;
}

// TMUX is "socket,server pid,session index"; the socket must be an absolute path without
// control characters or commas.
function tmuxOf(env: Env): FocusPlace["tmux"] {
  const pane = env.TMUX_PANE;
  const socket = /^(\/[^,\p{Cc}]{1,1000}),\d+,\d+$/u.exec(env.TMUX ?? "")?.[1];
  if (!socket || !pane || !PANE.test(pane)) return undefined;
  return { socket, pane };
}

function bundleIdOf(env: Env): string | undefined {
  const own = env.__CFBundleIdentifier;
  if (own && BUNDLE_ID.test(own)) return own;
  const known = env.TERM_PROGRAM ? MAC_TERMINALS[env.TERM_PROGRAM] : undefined;
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
  if (place.tmux) parts.push(`tmux pane ${place.tmux.pane}`);
  if (place.x11Window) parts.push(`X11 window ${place.x11Window}`);
  else if (place.display === "x11" || place.display === "sway" || place.display === "hyprland")
    parts.push(`the terminal window (${place.display}, by process)`);
  if (place.macBundleId) parts.push(place.macBundleId);
  if (place.windowsTerminal) parts.push("Windows Terminal");
  return parts.join(" and ");
}
