// Bundles src/ into dist/ with esbuild: one small chunk for the hook path, lazy chunks for the rest.
// Why a bundler: on Node 20 resolving zod's ~40 ES modules costs ~110 ms, a bundled zod/mini ~9 ms.
import { build } from "esbuild";
import { rm } from "node:fs/promises";

// Loaded lazily, only by the commands and sinks that need them; never bundled.
const external = ["node-notifier", "nodemailer", "undici", "yargs", "yargs/*", "jsonc-parser"];

await rm(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: "src/cli.ts", worker: "src/outbox/worker-main.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20.19",
  external,
  minify: true,
  sourcemap: true,
  chunkNames: "chunks/[name]-[hash]",
  // play-sound is CommonJS: give the bundle a real `require` for its node: built-ins.
  banner: {
    js: 'import { createRequire as __hnCreateRequire } from "node:module"; const require = __hnCreateRequire(import.meta.url);',
  },
  logLevel: "warning",
}).catch(() => process.exit(1));
