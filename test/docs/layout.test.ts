// The README is short and every topic it once held is still findable: each heading of the README
// as it was before it was split into docs/ (issue 40) is a heading of README.md or of a page
// docs/README.md links, and every relative link in README.md, CONTRIBUTING.md and docs/ resolves,
// anchors included.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { docFiles } from "../../scripts/docs-tables.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

// Each heading of the old README → the page that holds its text now, and the heading there when
// it was renamed.
const OLD_HEADINGS: readonly (readonly [string, string, string?])[] = [
  ["hook-notify", "README.md"],
  ["Get started", "README.md", "Install"],
  ["What arrives", "docs/what-arrives.md"],
  ["Platforms: what runs, and what was verified where", "docs/platforms.md"],
  ["Click a banner to get back to the agent", "docs/desktop.md"],
  ["Do Not Disturb", "docs/desktop.md"],
  [
    "Install into Droid, Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode, Qwen Code, Kilo, Auggie, Crush or Cursor",
    "docs/clients.md",
    "Install into Droid, Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode, Qwen Code, Kilo, Auggie, Crush, Cursor, Qoder CLI or Pi",
  ],
  ["Set up, check, see what happened", "docs/commands.md"],
  ["Try it by hand", "docs/commands.md"],
  ["Configuration", "docs/configuration.md"],
  ["Signal, not noise", "docs/configuration.md"],
  [
    "Presence: notify only when you are not looking, escalate when nobody answers",
    "docs/presence.md",
  ],
  ["A digest when you return", "docs/digest.md"],
  ["Receipts and fallback: where each notification went", "docs/receipts.md"],
  ["Project files", "docs/configuration.md"],
  ["Recipes", "README.md"],
  ["Phone push with ntfy", "docs/chat-services.md"],
  ["Approve or deny from your phone (Claude Code, Codex)", "docs/approve.md"],
  ["Telegram answers", "docs/approve.md"],
  ["A team Slack channel", "docs/chat-services.md"],
  ["Telegram", "docs/chat-services.md"],
  ["Pushover, Gotify and Matrix", "docs/chat-services.md"],
  ["Apprise URLs", "docs/chat-services.md"],
  ["Failures by e-mail", "docs/sinks.md"],
  ["Verifying a signed webhook", "docs/webhook.md"],
  ["In the agent's own terminal", "docs/sinks.md"],
  ["Over SSH or on a remote box", "docs/sinks.md"],
  ["The service: session titles and `hook-notify watch`", "docs/service.md"],
  ["A local fake of the service", "docs/service.md"],
  ["Troubleshooting", "docs/troubleshooting.md"],
  ["macOS: no banner", "docs/troubleshooting.md"],
  ["Linux: the banner is sent, nothing appears", "docs/troubleshooting.md"],
  ["Windows or WSL: no toast", "docs/troubleshooting.md"],
  ["Claude Code: SessionEnd and its 1.5 s", "docs/troubleshooting.md"],
  ["Droid ignores a hooks file with comments", "docs/troubleshooting.md"],
  ["Speed", "docs/speed.md"],
  ["More", "README.md"],
  ["Not built yet", "docs/README.md"],
];

function headingsOf(markdown: string): string[] {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  return [...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => (match[1] ?? "").trim());
}

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes.
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

// The relative links of a page: [text](target) and <img src="target">, outside code blocks.
function linksOf(markdown: string): string[] {
  const text = markdown.replace(/^```[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "");
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/src="([^"]+)"/g)];
  return links.map((match) => match[1] ?? "").filter((target) => !/^[a-z]+:/.test(target));
}

const PAGES = ["README.md", "CONTRIBUTING.md", ...docFiles(ROOT).filter((f) => f !== "README.md")];

// The pages docs/README.md links (the table of contents), by their path from the root.
const tableOfContents = new Set(
  linksOf(read("docs/README.md"))
    .map((target) => normalize(join("docs", target.split("#")[0] ?? "")))
    .concat("docs/README.md"),
);

describe("README for people", () => {
  it("is at most 300 lines", () => {
    expect(read("README.md").split("\n").length).toBeLessThanOrEqual(300);
  });

  it("gives the two commands of a fresh clone near the top", () => {
    const top = read("README.md").split("\n").slice(0, 20).join("\n");
    expect(top).toContain(
      "npm ci && npm run build && node bin/hook-notify.cjs --wait < test/fixtures/events/claude-code/Stop.json",
    );
    expect(top).toMatch(/^npm test$/m);
  });

  it("installs with commands that work without the package on the registry", () => {
    const install = read("README.md").split("\n## Install\n")[1]?.split("\n## ")[0] ?? "";
    expect(install).toContain("npm install -g .");
    expect(install).toContain("npm install -g ./hook-notify-0.1.0.tgz");
    expect(install).not.toMatch(/npm (i|install) -g hook-notify/);
  });
});

describe("every old README section is reachable from docs/README.md", () => {
  const cases = OLD_HEADINGS.map(([old, file, heading]) => [old, file, heading ?? old] as const);
  it.each(cases)("%s → %s", (_, file, heading) => {
    expect(headingsOf(read(file))).toContain(heading);
    if (file !== "README.md") expect([...tableOfContents]).toContain(file);
  });
});

describe("relative links resolve", () => {
  it.each(PAGES)("%s", (page) => {
    const broken: string[] = [];
    for (const target of linksOf(read(page))) {
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? page : normalize(join(dirname(page), path));
      if (!existsSync(join(ROOT, file))) {
        broken.push(target);
        continue;
      }
      if (anchor !== undefined && file.endsWith(".md")) {
        if (!headingsOf(read(file)).map(slug).includes(anchor)) broken.push(target);
      }
    }
    expect(broken).toEqual([]);
  });
});
