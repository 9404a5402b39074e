// Bundles one TypeScript entry of scripts/ (which imports src/) into a runnable ES module, for the
// scripts that run src code without a build of their own (render-pictures, docs-tables).
import { build } from "esbuild";

// The packages the bundle leaves to node_modules: the heavy ones src loads only when it sends.
const EXTERNAL = ["node-notifier", "nodemailer", "undici", "yargs", "jsonc-parser"];

export async function bundleScript(entry, outfile) {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    external: EXTERNAL,
    logLevel: "warning",
  });
  return outfile;
}
