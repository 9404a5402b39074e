// Renders the README pictures: what a notification looks like in Slack, Discord, Teams and e-mail.
// Run from the repository root:  node scripts/render-pictures.mjs
// Needs headless Chromium on PATH (Debian: apt-get install chromium fonts-noto-color-emoji
// fonts-lato fonts-open-sans). esbuild bundles scripts/pictures/entry.ts, which feeds captured hook
// payloads through the real src formatters and writes one HTML mock per service and case from the
// exact payloads; Chromium then screenshots each mock into docs/pictures/<service>-<case>.png.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(root, "docs/pictures");
const WIDTH = 720;
const chromium = process.env.CHROMIUM ?? "chromium";
// Twice the pixels of the CSS size, so the pictures stay sharp on high-density screens.
const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--hide-scrollbars",
  "--force-device-scale-factor=2",
];

// The content height the page script wrote into <body data-height>.
function measure(url) {
  const dom = execFileSync(
    chromium,
    [...chromiumFlags, `--window-size=${WIDTH},2000`, "--dump-dom", url],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const match = /data-height="(\d+)"/.exec(dom);
  if (match === null) throw new Error(`${url}: no data-height in the rendered page`);
  return Number(match[1]);
}

function screenshot(url, height, png) {
  execFileSync(
    chromium,
    [...chromiumFlags, `--window-size=${WIDTH},${height}`, `--screenshot=${png}`, url],
    { stdio: "ignore" },
  );
}

const work = mkdtempSync(join(tmpdir(), "hook-notify-pictures-"));
try {
  const entry = join(work, "entry.mjs");
  await build({
    entryPoints: [join(root, "scripts/pictures/entry.ts")],
    outfile: entry,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.19",
    external: ["node-notifier", "nodemailer", "undici", "yargs", "jsonc-parser"],
    logLevel: "warning",
  });
  const pages = JSON.parse(execFileSync("node", [entry, root, work], { encoding: "utf8" }));
  mkdirSync(outDir, { recursive: true });
  for (const page of pages) {
    const url = pathToFileURL(page).href;
    const png = join(outDir, basename(page, ".html") + ".png");
    screenshot(url, measure(url), png);
    console.log(`${png.slice(root.length)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
