// Presence first: while approve waits, Claude Code shows no dialog, so a person at the terminal
// would wait for nothing. The phone is asked only when the person is away, or always if they say so.

/** The presence contract (src/presence/probe.ts of the presence work): present, away or unknown. */
export type PresenceState = "present" | "away" | "unknown";

/** One presence reading as approve logs it. */
export interface PresenceReading {
  state: PresenceState;
  probe: string;
  detail: string;
}

/** Where the permission question goes, and why. */
export interface Route {
  to: "phone" | "terminal";
  why: string;
}

// This build has no presence probe: presence is unknown, so "away" defers to the terminal.
export function presenceUnavailable(): PresenceReading {
  return { state: "unknown", probe: "none", detail: "this build has no presence probe" };
}

// "always" asks the phone; "away" only when the probe says away, the terminal otherwise.
export function chooseRoute(when: "away" | "always", presence: PresenceReading): Route {
  if (when === "always") return { to: "phone", why: 'approveWhen is "always"' };
  if (presence.state === "away") return { to: "phone", why: `away (${presence.probe})` };
  if (presence.state === "present") {
    return { to: "terminal", why: `at the terminal (${presence.probe})` };
  }
  return { to: "terminal", why: `presence unknown (${presence.detail})` };
}
