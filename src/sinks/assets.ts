import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

// The package's assets/ folder, found from this module whether it runs bundled (dist/) or from src/.
export function assetsDir(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 5; depth += 1) {
    if (existsSync(join(dir, "assets", "sounds"))) return (cached = join(dir, "assets"));
    dir = dirname(dir);
  }
  return (cached = join(dirname(fileURLToPath(import.meta.url)), "assets"));
}
