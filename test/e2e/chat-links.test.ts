// Link spoofing on the built binary: agent text with `[Re-authenticate](url)`, `<url|Click here>`,
// an image, and a reference link, sent with --wait to all six chat services (one local server).
// Every posted string is free of link syntax whose words hide the URL, and the URL is shown.
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";
import { EVIL_URL, hasDisguisedLink, spoofing, stringsIn } from "../sinks/chat/notifications.js";

const SERVICES = ["slack", "discord", "teams", "googlechat", "mattermost", "ntfy"] as const;

describe("link spoofing in agent text", () => {
  it("reaches no chat service as a live disguised link; the URL is shown", async () => {
    const server = await startHttpServer([{ status: 200, body: "ok" }]);
    const home = tempHome();
    home.writeConfig({
      sinks: Object.fromEntries(
        SERVICES.map((service) => [
          service,
          { type: "chat", service, url: `${server.url}/${service}/topic`, timeoutSeconds: 5 },
        ]),
      ),
    });
    const input = fixture("claude-code/Stop.json", { last_assistant_message: spoofing.body });
    const result = await runBin(["--wait", "--timeout", "15"], {
      input,
      env: home.env,
      killAfterMs: 30_000,
    });
    expect(result.code).not.toBeNull();
    await server.waitForRequests(SERVICES.length, 20_000);

    for (const service of SERVICES) {
      const request = server.requests.find((r) => r.url.startsWith(`/${service}/`));
      const strings = stringsIn(JSON.parse(request?.body ?? "null"));
      for (const [path, text] of strings) {
        const permissive = service === "mattermost";
        expect(hasDisguisedLink(text, permissive), `${service} ${path}: ${text}`).toBe(false);
      }
      const shown = strings.some(([, text]) => text.includes(EVIL_URL));
      expect(shown, `${service} shows the URL`).toBe(true);
    }
  }, 60_000);
});
