// The agent's tmux pane as its hook's environment tells it (TMUX and TMUX_PANE): what a banner's
// click brings back (focus/place.ts) and where a typed reply is typed (reply/pane.ts). Pure.

/** The tmux server's socket and the agent's pane ("%3"). */
export interface TmuxPane {
  socket: string;
  pane: string;
}

// TMUX is "socket,server pid,session index"; the socket an absolute path without commas or control
// characters. Those (Unicode's Cc: C0, DEL, C1) are written as their ranges: with \p{Cc} V8 sets up
// its Unicode tables as it makes the pattern, 1-2 M instructions (Node 20) before a cold worker's
// first banner.
// eslint-disable-next-line no-control-regex -- the control characters are what it refuses
const SOCKET = /^(\/[^,\x00-\x1f\x7f-\x9f]{1,1000}),\d+,\d+$/u;
const PANE = /^%\d{1,9}$/;

/** The pane, or undefined when a variable is missing or does not look right. */
export function tmuxPaneOf(
  env: Readonly<Record<string, string | undefined>>,
): TmuxPane | undefined {
  const socket = SOCKET.exec(env.TMUX ?? "")?.[1];
  const pane = env.TMUX_PANE;
  if (!socket || !pane || !PANE.test(pane)) return undefined;
  return { socket, pane };
}
