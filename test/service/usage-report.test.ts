// `usage report --html FILE` opened in a real headless Chromium: the page renders its four
// charts, and loads nothing from anywhere (every request Chromium makes goes to a local proxy
// that records it: none may come from the page). Skipped, saying so, when Chromium is not installed
// (Debian: apt-get install chromium).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { runUsage } from "../../src/commands/usage-run.js";
import { serviceSetup } from "./service-io.js";
import { chromiumFlags } from "../../scripts/chromium.mjs";

const CHROMIUM = ["chromium", "chromium-browser"].find(
  (name) => spawnSync("sh", ["-c", `command -v ${name}`]).status === 0,
);

/** Where Chromium itself calls home (updates, time, accounts), page or no page. */
const BROWSER_OWN =
  /^(GET|POST|CONNECT) (https?:\/\/)?[a-z0-9.-]*\.(google\.com|googleapis\.com|gstatic\.com)[:/]/;

// Chromium with a fresh profile, every request through `proxy`; its stdout.
function chromium(proxy: string, args: string[]): Promise<{ code: number | null; stdout: string }> {
  const profile = mkdtempSync(join(tmpdir(), "hn-chromium-"));
  onTestFinished(() => {
    rmSync(profile, { recursive: true, force: true });
  });
  const child = spawn(
    CHROMIUM ?? "chromium",
    [
      ...chromiumFlags(profile),
      `--proxy-server=${proxy}`,
      "--proxy-bypass-list=<-loopback>",
      ...args,
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(killer);
      resolve({ code, stdout });
    });
  });
}

describe.skipIf(!CHROMIUM)(
  `usage report --html in headless Chromium${CHROMIUM ? "" : " (skipped: no chromium on PATH; apt-get install chromium)"}`,
  () => {
    it("renders the four charts and makes no network request", { timeout: 150_000 }, async () => {
      const { home, configPath, io } = await serviceSetup();
      const file = join(home.dir, "usage.html");
      expect(await runUsage(io, { configPath, kind: "report", html: file, json: false })).toBe(0);
      const html = readFileSync(file, "utf8");
      expect(html).not.toMatch(/<script|<link|@import|url\(|src=|href=/i);
      expect(html).toContain("org-fake");

      const seen: string[] = [];
      const proxy = createServer((req, res) => {
        seen.push(`${req.method ?? ""} ${req.url ?? ""}`);
        res.writeHead(502).end();
      });
      proxy.on("connect", (req, socket) => {
        seen.push(`CONNECT ${req.url ?? ""}`);
        socket.destroy();
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      onTestFinished(() => {
        proxy.close();
      });
      const address = proxy.address();
      const port = typeof address === "object" && address ? address.port : 0;
      const url = pathToFileURL(file).href;
      const proxyUrl = `http://127.0.0.1:${String(port)}`;

      const dom = await chromium(proxyUrl, ["--dump-dom", url]);
      expect(dom.stdout).toContain("Credits per day");
      expect(dom.stdout.match(/<svg /g)).toHaveLength(4);
      expect((dom.stdout.match(/<rect class="bar"/g) ?? []).length).toBe(4 * 30);

      const shot = join(home.dir, "usage.png");
      await chromium(proxyUrl, [`--screenshot=${shot}`, "--window-size=800,1200", url]);
      expect(readFileSync(shot).subarray(1, 4).toString("latin1")).toBe("PNG");
      expect(statSync(shot).size).toBeGreaterThan(10_000);
      // Chromium's own background calls (component updater, clock, accounts) go through the
      // proxy whatever the flags; nothing else may. A control page with one external image
      // shows that a page's load would be caught.
      const ofPage = () => seen.filter((line) => !BROWSER_OWN.test(line));
      expect(ofPage()).toEqual([]);
      const control = join(home.dir, "control.html");
      writeFileSync(control, '<!doctype html><img src="http://page-resource.test/x.png">');
      await chromium(proxyUrl, ["--dump-dom", pathToFileURL(control).href]);
      expect(ofPage()).toEqual(["GET http://page-resource.test/x.png"]);
      if (process.env["HOOK_NOTIFY_KEEP_SCREENSHOT"])
        writeCopy(shot, process.env["HOOK_NOTIFY_KEEP_SCREENSHOT"]);
    });
  },
);

function writeCopy(from: string, to: string): void {
  spawnSync("cp", [from, to]);
}
