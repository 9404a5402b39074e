// Presence first: while approve waits, Claude Code shows no dialog, so a person at the terminal
// would wait for nothing. The phone is asked only when the person is away, or always if they say so.

import type { PresenceState } from "../presence/probe.js";

/** One presence reading as approve logs it (the decision of src/presence/probe.ts). */
export interface PresenceReading {
  state: PresenceState;
  probe: string;
  detail: string;
  idleSeconds?: number | undefined;
}

/** Where the permission question goes, and why. */
export interface Route {
  to: "phone" | "terminal";
  why: string;
}

// The probe did not answer in time: presence is unknown, so "away" defers to the terminal.
export function presenceUnavailable(): PresenceReading {
  return { state: "unknown", probe: "none", detail: "the presence probe did not answer" };
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
