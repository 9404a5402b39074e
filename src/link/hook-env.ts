// The hook's environment variables that the pipeline reads, which a hook handing its event to the
// worker stores in the event entry (inbox.ts) so that the worker runs it as the hook would: paths,
// each client's variables (its adapter's `env` and `recognises.env`), the display and session
// bus, tmux, SSH, WSL, hook-notify's own knobs. Never a secret: a config's ${NAME} values stay in the environment (the worker's own,
// checked against the hook's by fingerprint, see link/stamp.ts), and so do proxies (they may hold
// a password; the worker sends with its own, as it does for every queued delivery).
// test/link/hook-env.test.ts checks that every variable src/ reads is here or named as not.
import { clients } from "../clients/index.js";
import { absoluteFrom } from "../path-join.js";
import { PRESENCE_ENV_KEYS } from "../presence/gate-env.js";

/** What the D-Bus banner, osascript, PowerShell and the players need from the hook's environment. */
export const LOCAL_ENV_KEYS = [
  "PATH",
  "HOME",
  "LANG",
  "LC_ALL",
  "LC_MESSAGES",
  "DISPLAY",
  "XAUTHORITY",
  "WAYLAND_DISPLAY",
  "XDG_RUNTIME_DIR",
  "XDG_SESSION_TYPE",
  "XDG_CURRENT_DESKTOP",
  "DBUS_SESSION_BUS_ADDRESS",
  "PULSE_SERVER",
  "PIPEWIRE_REMOTE",
  "WSL_DISTRO_NAME",
  "WSL_INTEROP",
  "WSLENV",
  "SystemRoot",
  // Where the agent runs, for a banner's click (focus/place.ts); TMUX and TMUX_PANE come with
  // the presence keys.
  "WINDOWID",
  "TERM_PROGRAM",
  "__CFBundleIdentifier",
  "WT_SESSION",
  "HOOK_NOTIFY_LOCAL_SINKS",
  "HOOK_NOTIFY_SETTLE_MS",
  // The voice sink writes its speech to this WAV file instead of the speakers (sinks/voice.ts).
  "HOOK_NOTIFY_VOICE_FILE",
  // The terminal sink: which terminal the agent runs in (sinks/terminal-sequence.ts); with
  // TERM_PROGRAM and WT_SESSION above, and TMUX, TMUX_PANE from the presence keys.
  "TERM",
  "LC_TERMINAL",
  "KITTY_WINDOW_ID",
  "WEZTERM_PANE",
  // A banner's click focuses the exact tab or pane (focus/place.ts): kitty's remote-control
  // socket, WezTerm's mux socket, zellij's session and pane, iTerm2's session.
  "KITTY_LISTEN_ON",
  "WEZTERM_UNIX_SOCKET",
  "ZELLIJ_SESSION_NAME",
  "ZELLIJ_PANE_ID",
  "ITERM_SESSION_ID",
  "VTE_VERSION",
] as const;

/** Variables that name a file or folder: the worker runs in another folder, so the hook makes a
 * relative one absolute against its own before it leaves (issue 37: a relative
 * HOOK_NOTIFY_CONFIG was read by the worker against the worker's folder). */
export const PATH_ENV_KEYS = [
  "HOOK_NOTIFY_CONFIG",
  "HOME",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "XDG_CONFIG_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  "XDG_RUNTIME_DIR",
  "XAUTHORITY",
] as const;

/** Set by the build in dist/hook.cjs: the list below as data, so that the hook does not build it
 * on every run (~0.14 M instructions). */
declare const __hnHookEnvKeys: readonly string[] | undefined;

export const HOOK_ENV_KEYS: readonly string[] =
  typeof __hnHookEnvKeys === "undefined" ? hookEnvKeys() : __hnHookEnvKeys;

// scripts/build.mjs evaluates this module once and gives dist/hook.cjs the result.
function hookEnvKeys(): string[] {
  return [
    ...new Set([
      ...LOCAL_ENV_KEYS,
      ...PRESENCE_ENV_KEYS,
      ...PATH_ENV_KEYS,
      ...clients.flatMap((adapter) => [...(adapter.recognises.env ?? []), ...adapter.env]),
      "HOOK_NOTIFY_DEBUG",
      "HOOK_NOTIFY_FAST",
      "HOOK_NOTIFY_OUTBOX_MAX_AGE_HOURS",
      "HOOK_NOTIFY_WORKER_IDLE_SECONDS",
      "NO_COLOR",
      "FORCE_COLOR",
      "TERM",
      "PATHEXT",
      "Path",
      "SYSTEMROOT",
      "SSH_CONNECTION",
      "SSH_TTY",
      "container",
    ]),
  ];
}

/** The variables of `env` with every PATH_ENV_KEYS value made absolute against `cwd`: the same
 * object when all of them already are (the usual case: no copy). */
export function withAbsolutePaths<E extends Readonly<Record<string, string | undefined>>>(
  env: E,
  cwd: string,
): E {
  let out: E | undefined;
  for (const key of PATH_ENV_KEYS) {
    const value = env[key];
    const absolute = absoluteFrom(cwd, value);
    if (absolute === value) continue;
    out ??= { ...env };
    (out as Record<string, string | undefined>)[key] = absolute;
  }
  return out ?? env;
}

/** The hook's variables that go into its event entry, the set ones of HOOK_ENV_KEYS in order:
 * JSON.stringify with the names as its replacer picks them in C++. A loop over the ~65 names in
 * V8's interpreter made it hot enough for a baseline compile on the hook's fast path (~0.3 M
 * instructions). Paths are made absolute against `cwd` (the hook's folder). */
export function carriedEnv(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Record<string, string> {
  const carried = JSON.parse(JSON.stringify(env, HOOK_ENV_KEYS as string[])) as Record<
    string,
    string
  >;
  return withAbsolutePaths(carried, cwd);
}

/** Read by src/ but deliberately not carried: the worker uses its own. */
export const WORKER_OWN_ENV_KEYS: readonly string[] = [
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "HOOK_NOTIFY_WEBHOOK_URL",
  "HOOK_NOTIFY_WEBHOOK_SECRET",
];

// The environment the worker runs a handed-over event in: its own, with every variable the hook
// carries replaced by the hook's (or removed, when the hook had none).
export function hookEnvFor(
  workerEnv: Readonly<Record<string, string | undefined>>,
  carried: Readonly<Record<string, string>>,
): Record<string, string | undefined> {
  const own = Object.entries(workerEnv).filter(([key]) => !HOOK_ENV_KEYS.includes(key));
  const hooks = Object.entries(carried).filter(([key]) => HOOK_ENV_KEYS.includes(key));
  return Object.fromEntries([...own, ...hooks]);
}
