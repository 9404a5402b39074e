// What a banner's question is and what it can answer, shared by the Linux banner
// (banner-actions.ts) and the macOS and Windows ones (banner-actions-other.ts).
import type { Deps } from "../deps.js";

/** What the banner's buttons answered, or why there was no banner or no answer. */
export type BannerAnswer = { answer: "allow" | "deny"; via?: string } | { none: string };

export interface BannerQuestion {
  title: string;
  body: string;
  /** How long the banner stays and is followed. */
  seconds: number;
  deps: Deps;
  /** Aborted when the answer came from elsewhere or the time is up: the banner is withdrawn. */
  signal: AbortSignal;
}

/** The action keys, fixed literals: the only answers a banner can give. */
export const BANNER_KEYS = { "hn-allow": "allow", "hn-deny": "deny" } as const;

/** Said when the banner was taken away because the question ended elsewhere. */
export const WITHDRAWN = "the banner was withdrawn (answered elsewhere, or the time was up)";

// Resolves (with nothing) once the signal aborts.
export function abortOf(signal: AbortSignal): Promise<undefined> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else
      signal.addEventListener(
        "abort",
        () => {
          resolve(undefined);
        },
        { once: true },
      );
  });
}

/** How long closing a banner may take (dbus-send, terminal-notifier -remove). */
export const CLOSE_MS = 3_000;
