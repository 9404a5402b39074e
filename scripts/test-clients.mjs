// npm run test:clients [-- --latest [--changed]] [-- --report FILE]: the real-client turns
// (test/real-clients/) against the pinned client versions (pinned.json), or with --latest the
// newest version of every client pinned.json lists, as the package registry names it now.
// --changed keeps only the clients whose newest version differs from the pinned one (CI's
// latest lane). Each version is installed once into $HOOK_NOTIFY_CLIENTS/<id>-<version> (npm
// install --prefix); the turns then run with HOOK_NOTIFY_CLIENT_VERSIONS naming the versions.
// The last lines say, per failing turn, which client, which version and which turn; --report
// writes the same lines to FILE. Exit 0 when every turn passed, 1 otherwise.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const pinned = JSON.parse(readFileSync(join(root, "test/real-clients/pinned.json"), "utf8"));
const args = process.argv.slice(2);
const latest = args.includes("--latest");
const changedOnly = args.includes("--changed");
const reportAt = args.indexOf("--report");
const reportFile = reportAt >= 0 ? args[reportAt + 1] : undefined;
const cacheHome = process.env.XDG_CACHE_HOME ?? join(os.homedir(), ".cache");
const clientsDir = process.env.HOOK_NOTIFY_CLIENTS ?? join(cacheHome, "hook-notify", "clients");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

// The newest published version of a package, or undefined when the registry cannot be asked.
function newestVersion(pkg) {
  const result = spawnSync(npm, ["view", pkg, "version"], { encoding: "utf8", timeout: 60_000 });
  const version = result.status === 0 ? result.stdout.trim() : "";
  return /^\d+\.\d+\.\d+/.test(version) ? version : undefined;
}

// [{ id, pkg, bin, version, pinned }] for the clients to run.
function chooseClients() {
  const chosen = [];
  for (const [id, entry] of Object.entries(pinned)) {
    const version = latest ? newestVersion(entry.package) : entry.version;
    if (version === undefined) {
      say(`${entry.package}: the newest version could not be looked up; skipped`);
      continue;
    }
    if (changedOnly && version === entry.version) {
      say(`${entry.package}@${version}: the newest is the pinned one (run in the pinned lane)`);
      continue;
    }
    chosen.push({ id, pkg: entry.package, bin: entry.bin, version, pinned: entry.version });
  }
  return chosen;
}

// True once <dir>/<id>-<version>/node_modules/.bin/<bin> exists.
function install(client) {
  const dest = join(clientsDir, `${client.id}-${client.version}`);
  if (existsSync(join(dest, "node_modules", ".bin", client.bin))) return true;
  const spec = `${client.pkg}@${client.version}`;
  const result = spawnSync(npm, ["install", "--no-audit", "--no-fund", "--prefix", dest, spec], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
    timeout: 600_000,
  });
  if (result.status === 0) say(`${spec}: installed into ${dest}`);
  else {
    client.whyNot = installError(result);
    say(`${spec}: install failed (${client.whyNot})`);
  }
  return result.status === 0;
}

// npm's own reason in one line: the first "notarget"/"ERR!"-style line that is not a log path, e.g.
// "No matching version found for @kilocode/cli-linux-x64@7.8.1" (a release published without the
// package for this platform).
function installError(result) {
  if (result.error) return result.error.message;
  const lines = String(result.stderr ?? "")
    .split("\n")
    .map((line) => line.replace(/^(npm (error|ERR!) )+/, "").trim())
    .filter((line) => line && !/complete log|^code |^A complete|^\d+ verbose/.test(line));
  const notarget = lines.find((line) => line.startsWith("notarget No matching version"));
  return (notarget?.replace(/^notarget /, "") ?? lines[0] ?? `npm exited ${result.status}`).slice(
    0,
    200,
  );
}

function say(line) {
  process.stdout.write(`${line}\n`);
}

// The failing turns out of vitest's JSON report: "<package>@<version>: install, <turn>".
function failures(reportPath) {
  if (!existsSync(reportPath)) return undefined;
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === "failed")
      .map((test) => test.title.replace(": install, ", " — turn: ")),
  );
}

const clients = chooseClients();
const runnable = clients.filter(install);
const lines = clients
  .filter((client) => !runnable.includes(client))
  .map(
    (client) =>
      `FAILED ${client.pkg}@${client.version}: could not be installed (${client.whyNot ?? "npm failed"})`,
  );
if (runnable.length > 0) {
  const versions = Object.fromEntries(runnable.map((client) => [client.id, client.version]));
  const ids = runnable.map((client) => client.id.replace(/[^a-z0-9-]/g, "")).join("|");
  const tmp = mkdtempSync(join(os.tmpdir(), "hook-notify-clients-"));
  const reportPath = join(tmp, "report.json");
  const vitest = spawnSync(
    process.execPath,
    [
      join(root, "node_modules", "vitest", "vitest.mjs"),
      "run",
      "--project",
      "clients",
      "test/real-clients/real-clients.test.ts",
      "-t",
      `^real (${ids}) `,
      "--reporter=default",
      "--reporter=json",
      `--outputFile=${reportPath}`,
    ],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        HOOK_NOTIFY_CLIENTS: clientsDir,
        HOOK_NOTIFY_CLIENT_VERSIONS: JSON.stringify(versions),
      },
    },
  );
  const failed = failures(reportPath);
  rmSync(tmp, { recursive: true, force: true });
  if (failed !== undefined) lines.push(...failed.map((title) => `FAILED ${title}`));
  if (failed === undefined || (vitest.status !== 0 && failed.length === 0))
    lines.push(`FAILED the real-client run itself (exit ${String(vitest.status)})`);
}
const label = latest ? "newest" : "pinned";
const moved = latest
  ? clients
      .filter((client) => client.version !== client.pinned)
      .map((c) => `${c.id} ${c.pinned} → ${c.version}`)
  : [];
const verdict =
  clients.length === 0
    ? "nothing to run"
    : lines.length === 0
      ? "all passed"
      : `${String(lines.length)} failed`;
const newer = moved.length > 0 ? ` (newer than pinned: ${moved.join(", ")})` : "";
lines.unshift(`real clients (${label}): ${String(runnable.length)} run, ${verdict}${newer}`);
say(lines.join("\n"));
if (reportFile !== undefined) writeFileSync(reportFile, `${lines.join("\n")}\n`);
process.exitCode = lines.length > 1 ? 1 : 0;
