// Bundles src/ into dist/ with esbuild: dist/cli.cjs (the hook path only), dist/commands.cjs (yargs
// and the other commands: install, uninstall, flush, help) and dist/worker.cjs (the outbox worker).
// Why a bundle: on Node 20 resolving zod's ~40 ES modules costs ~110 ms, a bundled zod/mini ~5 ms.
// Why CommonJS: one CommonJS file skips the ES module loader's resolve/link/instantiate steps,
// about 5 ms of every hook run on Node 20 (no compile cache before Node 22).
import { build } from "esbuild";
import { rm } from "node:fs/promises";

// Loaded lazily with import(), only by the commands and sinks that need them; never bundled.
const external = ["node-notifier", "nodemailer", "undici", "yargs", "yargs/*", "jsonc-parser"];

// cli.ts imports ./cli-yargs.js only for non-hook commands: that import loads dist/commands.cjs, so
// the hook's bundle does not carry (and V8 does not parse) the installer and the other commands.
const commandsApart = {
  name: "commands-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/cli-yargs\.js$/ }, (args) =>
      args.importer.endsWith("cli.ts") ? { path: "./commands.cjs", external: true } : undefined,
    );
  },
};

await rm(new URL("../dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: {
    cli: "src/cli.ts",
    commands: "src/cli-yargs.ts",
    worker: "src/worker/worker-main.ts",
  },
  plugins: [commandsApart],
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20.19",
  external,
  minify: process.env.HN_NO_MINIFY !== "1", // HN_NO_MINIFY=1: readable names in --cpu-prof
  sourcemap: true,
  // src is ES modules and finds its files (assets/, package.json, the worker) from import.meta.url.
  define: { "import.meta.url": "__hnModuleUrl" },
  banner: { js: 'var __hnModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: "warning",
}).catch(() => process.exit(1));
