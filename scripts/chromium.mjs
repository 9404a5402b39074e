// Headless Chromium that stays offline and leaves nothing behind: no first-run pages, no update,
// sync, safe-browsing or phone-home requests, a profile folder of the caller's. Shared by the
// pictures script (scripts/render-pictures.mjs) and the usage report's browser test.
export const HEADLESS_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
  "--disable-extensions",
  "--disable-default-apps",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--no-pings",
  "--no-default-browser-check",
  "--disable-features=OptimizationHints,MediaRouter,Translate,AutofillServerCommunication,CertificateTransparencyComponentUpdater,SafeBrowsing,InterestFeedContentSuggestions",
];

/** The flags with a profile folder of its own. */
export function chromiumFlags(profileDir) {
  return [...HEADLESS_FLAGS, `--user-data-dir=${profileDir}`];
}
