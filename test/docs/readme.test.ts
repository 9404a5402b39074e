import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { validateConfig } from "../../src/config/validate-config.js";
import { docFiles } from "../../scripts/docs-tables.mjs";
import { webhook } from "../../src/sinks/webhook.js";
import { sampleNotification, testDeps } from "../helpers/sample-notification.js";

type Verify = (secret: string, headers: IncomingHttpHeaders, body: string) => boolean;

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SECRET = `whsec_${Buffer.from("readme-recipe-signing-key-0123456789").toString("base64")}`;
const OTHER_SECRET = `whsec_${Buffer.from("someone-else-signing-key-0123456789").toString("base64")}`;

// Plausible values for every ${VAR} the snippets use.
const ENV = {
  NTFY_TOKEN: "tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2",
  NTFY_TOPIC: "agent-7f3k2q9x",
  SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T0123/B0456/abcdefABCDEF0123",
  DISCORD_WEBHOOK_URL: "https://discord.com/api/webhooks/1234567890/abcdefABCDEF0123",
  TEAMS_WEBHOOK_URL:
    "https://prod-01.westus.logic.azure.com/workflows/abc123/triggers/manual/paths/invoke?sig=xyz",
  GOOGLE_CHAT_WEBHOOK_URL: "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t",
  MATTERMOST_WEBHOOK_URL: "https://mm.example.com/hooks/abcdef0123456789",
  SMTP_PASS: "app-password-1234",
  HOOK_SECRET: SECRET,
  HOOK_URL: "https://ci.example.com/agent",
  FACTORY_API_KEY: "fk-0123456789abcdef",
  TELEGRAM_URL: "tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/-1001234567890",
  PUSHOVER_URL: "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi",
  GOTIFY_URL: "gotifys://gotify.example.com/AzyoeNS.D4iJLVa",
  MATRIX_URL: "matrixs://syt_YWxpY2U_token_1a2b@matrix.example.org/!AbCdEf123:example.org",
};

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

// The section under a `## ` heading, up to the next heading of that level.
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = markdown.indexOf("\n## ", start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

function codeBlocks(markdown: string, lang: string): string[] {
  const fence = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm");
  return [...markdown.matchAll(fence)].map((match) => match[1] ?? "");
}

function verifyBlock(markdown: string): string {
  const match = /<!-- recipe:verify-webhook -->\s*```js\n([\s\S]*?)^```$/m.exec(markdown);
  if (!match?.[1]) throw new Error("no js block after <!-- recipe:verify-webhook -->");
  return match[1];
}

// Every page a person reads: the README and docs/, plus CONTRIBUTING.md.
const PAGES = ["README.md", "CONTRIBUTING.md", ...docFiles(ROOT).filter((f) => f !== "README.md")];

// Every JSON block that is a config (it has "sinks"), with the page it is on.
const configBlocks = PAGES.flatMap((file) =>
  codeBlocks(read(file), "json")
    .filter((block) => block.includes('"sinks"'))
    .map((block) => [file, block] as const),
);

describe("README and docs: config snippets", () => {
  it("the README has the five recipes' snippets", () => {
    expect(codeBlocks(section(read("README.md"), "Recipes"), "json").length).toBeGreaterThanOrEqual(
      5,
    );
  });

  it.each(configBlocks)("%s: a config snippet validates with no issues", (_, block) => {
    const json = JSON.parse(block) as { sinks: Record<string, unknown> };
    const result = validateConfig(json, ENV);
    expect(result.issues).toEqual([]);
    expect(Object.keys(result.value.sinks)).toEqual(Object.keys(json.sinks));
  });
});

// Serves the README's verify() on port 0: 204 for a request it accepts, 401 otherwise.
async function startReceiver(verify: Verify) {
  const seen: { headers: IncomingHttpHeaders; body: string; accepted: boolean }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const accepted = verify(SECRET, request.headers, body);
      seen.push({ headers: request.headers, body, accepted });
      response.writeHead(accepted ? 204 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  });
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/agent`;
  return { url, seen };
}

// Delivers one notification through the real webhook sink, signed with `secret`.
function deliver(url: string, secret: string, now: () => number = Date.now) {
  return webhook.send(
    sampleNotification(),
    { url, secret },
    {
      signal: AbortSignal.timeout(3_000),
      deps: testDeps({}, now),
      sinkName: "ci",
      wait: true,
    },
  );
}

describe("docs/webhook.md: the webhook verification code", () => {
  let verify: Verify;

  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), "hook-notify-readme-"));
    const file = join(dir, "verify.mjs");
    await writeFile(file, verifyBlock(read("docs/webhook.md")));
    const module = (await import(pathToFileURL(file).href)) as { verify: Verify };
    verify = module.verify;
    await rm(dir, { recursive: true, force: true });
  });

  it("accepts a genuine delivery from the webhook sink", async () => {
    const receiver = await startReceiver(verify);
    await deliver(receiver.url, SECRET);
    const [request] = receiver.seen;
    expect(request?.accepted).toBe(true);
    // The independent check agrees that this request is genuine.
    const headers = request?.headers as Record<string, string>;
    expect(() => new Webhook(SECRET).verify(request?.body ?? "", headers)).not.toThrow();
  });

  it("rejects a tampered body", async () => {
    const receiver = await startReceiver(verify);
    await deliver(receiver.url, SECRET);
    const genuine = receiver.seen[0];
    const headers = { ...genuine?.headers } as Record<string, string>;
    delete headers["content-length"];
    const tampered = (genuine?.body ?? "").replace('"failure":true', '"failure":false');
    expect(tampered).not.toBe(genuine?.body);
    const response = await fetch(receiver.url, { method: "POST", headers, body: tampered });
    expect(response.status).toBe(401);
    expect(receiver.seen[1]?.accepted).toBe(false);
  });

  it("rejects a delivery signed with another secret", async () => {
    const receiver = await startReceiver(verify);
    await expect(deliver(receiver.url, OTHER_SECRET)).rejects.toMatchObject({
      code: "SINK_HTTP_STATUS",
    });
    expect(receiver.seen.map((request) => request.accepted)).toEqual([false]);
  });

  it("rejects a timestamp older than 5 minutes and accepts one 4 minutes old", async () => {
    const receiver = await startReceiver(verify);
    await expect(
      deliver(receiver.url, SECRET, () => Date.now() - 6 * 60_000),
    ).rejects.toMatchObject({ code: "SINK_HTTP_STATUS" });
    await deliver(receiver.url, SECRET, () => Date.now() - 4 * 60_000);
    expect(receiver.seen.map((request) => request.accepted)).toEqual([false, true]);
  });

  it("rejects a request without the signature headers", () => {
    expect(verify(SECRET, {}, "{}")).toBe(false);
    expect(
      verify(
        SECRET,
        { "webhook-id": "msg_1", "webhook-timestamp": "soon", "webhook-signature": "v1,x" },
        "{}",
      ),
    ).toBe(false);
  });
});
