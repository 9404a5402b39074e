// Where node-notifier keeps the programs it starts (terminal-notifier, SnoreToast), and whether
// one can run: the macOS route (send) and doctor's check read the same place the same way.
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** node-notifier's vendor folder; undefined when the package is not installed. */
export function nodeNotifierVendorDir(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve("node-notifier/package.json")), "vendor");
  } catch {
    return undefined;
  }
}

// The terminal-notifier program inside a vendor folder (macOS).
export function terminalNotifierIn(vendor: string): string {
  return join(
    vendor,
    "mac.noindex",
    "terminal-notifier.app",
    "Contents",
    "MacOS",
    "terminal-notifier",
  );
}

// True when this process may run the file (it exists and has its execute bit).
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
