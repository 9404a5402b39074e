// The User-Agent of every HTTP request: "hook-notify/<version>", read once from package.json.
import { readFileSync } from "node:fs";

let cached: string | undefined;

// Walks up from this module (src/http, dist, dist/chunks) to our package.json, once; never throws.
// Synchronous so that render() can show the exact header; only senders and --dry-run call it.
export function userAgent(): string {
  cached ??= `hook-notify/${findVersion()}`;
  return cached;
}

function findVersion(): string {
  for (let up = 1; up <= 4; up++) {
    const url = new URL(`${"../".repeat(up)}package.json`, import.meta.url);
    try {
      const pkg = JSON.parse(readFileSync(url, "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "hook-notify" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // not here: one folder up
    }
  }
  return "0.0.0";
}
