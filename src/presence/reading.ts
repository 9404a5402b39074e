// What one presence probe saw: the pieces probe.ts combines into present, away or unknown.

/** One probe's answer. Undefined fields mean "this probe cannot tell". */
export interface Reading {
  /** The probe's name: "tmux", "xdotool", "xprintidle", "gdbus", "swaymsg", … */
  probe: string;
  /** Whether the session's terminal (or tmux pane) has the focus, as far as this probe knows. */
  focused?: boolean | undefined;
  /** Seconds since the person last typed or moved the mouse. */
  idleSeconds?: number | undefined;
  /** Pid of the application in front (a desktop probe); probe.ts matches it to the session. */
  activePid?: number | undefined;
  /** Name of the application in front, when that is all the probe knows (WSL). */
  activeName?: string | undefined;
  /** Pids whose ancestors are the terminal showing the session (tmux clients). */
  clientPids?: number[] | undefined;
  /** What the probe saw, for the log and doctor; never event text. */
  detail: string;
  /** How long the probe took. */
  ms: number;
}
