import { randomBytes } from "node:crypto";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { build } from "esbuild";

// Bundles entry points like scripts/build.mjs does, into the project's .cache/ (git-ignored), so
// that the external packages (undici, nodemailer, …) resolve from the project's node_modules and
// the bundle finds the project's own assets/ from where it lies. Not inside node_modules: in a git
// worktree that is a symlink to another checkout, and node runs a module from its real path, so
// a bundle there would find that checkout's assets/. Returns file paths.
export async function bundle(
  entries: Record<string, string>,
): Promise<{ files: Record<string, string>; cleanup: () => Promise<void> }> {
  const outdir = join(process.cwd(), ".cache", `hn-test-${randomBytes(4).toString("hex")}`);
  await mkdir(outdir, { recursive: true });
  await build({
    entryPoints: entries,
    outdir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    external: [
      "node-notifier",
      "nodemailer",
      "play-sound",
      "undici",
      "yargs",
      "yargs/*",
      "jsonc-parser",
    ],
    banner: {
      js: 'import { createRequire as __r } from "node:module"; const require = __r(import.meta.url);',
    },
    logLevel: "error",
  });
  const files = Object.fromEntries(
    Object.keys(entries).map((name) => [name, join(outdir, `${name}.js`)]),
  );
  return { files, cleanup: () => rm(outdir, { recursive: true, force: true }) };
}
