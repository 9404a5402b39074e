// Renders the pictures in docs/pictures/:
//   chat     what a notification looks like in Slack, Discord, Teams and e-mail
//   desktop  a real desktop banner: the built hook-notify on a virtual display with a real
//            notification daemon (dunst), screenshot from the X server
//   phone    the ntfy messages a real hook-notify run published, on a phone-sized page
// Run from the repository root after `npm run build`:  node scripts/render-pictures.mjs [chat] [desktop] [phone]
// (no argument: all three). Needs headless Chromium on PATH (Debian: apt-get install chromium
// fonts-noto-color-emoji fonts-lato fonts-open-sans) and, for the desktop picture, xvfb, dbus,
// dunst, x11-xserver-utils, x11-apps and imagemagick (CONVERT names its `convert`).
// esbuild bundles scripts/pictures/*.ts, which feed captured hook payloads through the real src
// formatters (chat) or draw what a run sent (phone); Chromium screenshots each page.
import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { bundleScript } from "./bundle-script.mjs";
import { chromiumFlags } from "./chromium.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const outDir = join(root, "docs/pictures");
const hookNotify = join(root, "bin/hook-notify.cjs");
const WIDTH = 720;
const chromium = process.env.CHROMIUM ?? "chromium";
const convert = process.env.CONVERT ?? "convert";
// The captured payloads the desktop and phone pictures run through the built hook-notify.
const EVENTS = ["claude-code/Notification.json", "claude-code/Stop.json"];
const DESKTOP_COLOUR = "#3c4a5a";

// Twice the pixels of the CSS size, so the pictures stay sharp on high-density screens.
function pictureFlags(work) {
  return [...chromiumFlags(join(work, "chromium")), "--force-device-scale-factor=2"];
}

// The content height the page script wrote into <body data-height>.
function measure(work, url) {
  const dom = execFileSync(
    chromium,
    [...pictureFlags(work), `--window-size=${WIDTH},2000`, "--dump-dom", url],
    { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
  );
  const match = /data-height="(\d+)"/.exec(dom);
  if (match === null) throw new Error(`${url}: no data-height in the rendered page`);
  return Number(match[1]);
}

function screenshot(work, url, width, height, png) {
  execFileSync(
    chromium,
    [...pictureFlags(work), `--window-size=${width},${height}`, `--screenshot=${png}`, url],
    { stdio: "ignore" },
  );
  console.log(png.slice(root.length));
}

// Bundles one scripts/pictures entry into the work folder and returns the bundle's path.
function bundle(work, name) {
  return bundleScript(join(root, `scripts/pictures/${name}.ts`), join(work, `${name}.mjs`));
}

async function renderChat(work) {
  const entry = await bundle(work, "entry");
  const pages = JSON.parse(execFileSync("node", [entry, root, work], { encoding: "utf8" }));
  for (const page of pages) {
    const url = pathToFileURL(page).href;
    screenshot(
      work,
      url,
      WIDTH,
      measure(work, url),
      join(outDir, `${basename(page, ".html")}.png`),
    );
  }
}

// A fresh HOME and XDG folders under `dir`, with `config` as the user config: nothing of the
// machine's own setup leaks into a picture.
function freshHome(dir, config) {
  mkdirSync(join(dir, ".config/hook-notify"), { recursive: true });
  writeFileSync(join(dir, ".config/hook-notify/config.json"), JSON.stringify(config));
  const xdg = (name) => join(dir, name);
  return {
    HOME: dir,
    XDG_CONFIG_HOME: xdg(".config"),
    XDG_DATA_HOME: xdg(".local/share"),
    XDG_STATE_HOME: xdg(".local/state"),
    XDG_CACHE_HOME: xdg(".cache"),
  };
}

// Runs the built hook-notify in the foreground (--wait) on one captured payload; fails loudly.
async function runHook(env, fixture) {
  const child = spawn(process.execPath, [hookNotify, "--wait"], {
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  child.stdin.end(readFileSync(join(root, "test/fixtures/events", fixture)));
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`hook-notify --wait < ${fixture} exited ${code}: ${out}`);
}

// The phone: a local stand-in of ntfy records what the run publishes; the page shows exactly that.
async function renderPhone(work) {
  const published = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      published.push(JSON.parse(body));
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ id: `m${published.length}`, event: "message" }));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${server.address().port}/agent-7f3k2q9x`;
  const config = { sinks: { phone: { type: "chat", service: "ntfy", url, tags: ["computer"] } } };
  const env = { PATH: process.env.PATH, ...freshHome(join(work, "phone-home"), config) };
  try {
    for (const fixture of EVENTS) await runHook(env, fixture);
  } finally {
    server.close();
  }
  const bodies = join(work, "ntfy.json");
  const html = join(work, "phone.html");
  writeFileSync(bodies, JSON.stringify(published));
  execFileSync("node", [await bundle(work, "phone"), bodies, html]);
  screenshot(work, pathToFileURL(html).href, 390, 844, join(outDir, "phone-ntfy.png"));
}

const dunstrc = `[global]
    font = DejaVu Sans 11
    width = 470
    origin = top-right
    offset = 24x24
    frame_width = 1
    frame_color = "#4b5263"
    corner_radius = 0
    padding = 12
    horizontal_padding = 14
    icon_path = /usr/share/icons/Adwaita/48x48/legacy:/usr/share/icons/Adwaita/48x48/status
    max_icon_size = 40
    format = "<b>%s</b>\\n%b"
[urgency_low]
    background = "#262a33"
    foreground = "#e6e6e6"
    timeout = 0
[urgency_normal]
    background = "#262a33"
    foreground = "#e6e6e6"
    timeout = 0
[urgency_critical]
    background = "#3b1f22"
    foreground = "#ffffff"
    frame_color = "#d94f4f"
    timeout = 0
`;

// The desktop: Xvfb picks a free display, a private session bus carries the banners to dunst.
async function renderDesktop(work) {
  const xvfb = spawn(
    "Xvfb",
    ["-displayfd", "3", "-screen", "0", "1000x300x24", "-nolisten", "tcp"],
    {
      stdio: ["ignore", "ignore", "ignore", "pipe"],
    },
  );
  try {
    const [number] = await once(xvfb.stdio[3], "data");
    const display = `:${String(number).trim()}`;
    execFileSync("xsetroot", ["-display", display, "-solid", DESKTOP_COLOUR]);
    writeFileSync(join(work, "dunstrc"), dunstrc);
    const env = { ...process.env, DISPLAY: display };
    await promisify(execFile)(
      "dbus-run-session",
      ["--", process.execPath, fileURLToPath(import.meta.url), "--in-session", work],
      { env },
    );
    const png = join(outDir, "desktop-banner.png");
    // The banners' corner of the screen, trimmed to them with a margin of desktop around them.
    execFileSync(convert, [
      join(work, "screen.xwd"),
      "-crop",
      "540x300+460+0",
      "+repage",
      "-fuzz",
      "1%",
      "-trim",
      "+repage",
      "-bordercolor",
      DESKTOP_COLOUR,
      "-border",
      "20",
      "-strip",
      png,
    ]);
    console.log(png.slice(root.length));
  } finally {
    xvfb.kill();
  }
}

// Inside the private session bus: start dunst, let hook-notify show the banners, take the screen.
async function inSession(work) {
  const dunst = spawn("dunst", ["-config", join(work, "dunstrc")], { stdio: "ignore" });
  try {
    const owned = [
      "--session",
      "--print-reply",
      "--dest=org.freedesktop.DBus",
      "/",
      "org.freedesktop.DBus.NameHasOwner",
      "string:org.freedesktop.Notifications",
    ];
    for (
      let tries = 0;
      !execFileSync("dbus-send", owned, { encoding: "utf8" }).includes("true");
      tries++
    ) {
      if (tries > 50) throw new Error("dunst did not take org.freedesktop.Notifications");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const config = { sinks: { desktop: { type: "desktop" } } };
    const env = { ...process.env, ...freshHome(join(work, "desktop-home"), config) };
    for (const fixture of EVENTS) await runHook(env, fixture);
    // dunst draws a banner a moment after it accepted it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    execFileSync("xwd", ["-root", "-silent", "-out", join(work, "screen.xwd")]);
  } finally {
    dunst.kill();
  }
}

async function main() {
  const parts = process.argv.slice(2);
  const want = (part) => parts.length === 0 || parts.includes(part);
  const work = mkdtempSync(join(tmpdir(), "hook-notify-pictures-"));
  try {
    mkdirSync(outDir, { recursive: true });
    if (want("chat")) await renderChat(work);
    if (want("desktop")) await renderDesktop(work);
    if (want("phone")) await renderPhone(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[2] === "--in-session") await inSession(process.argv[3]);
else await main();
