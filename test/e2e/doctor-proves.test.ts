// doctor proves a remote sink without notifying where the service allows it (a GET on a Discord
// webhook answers its details; a deleted one answers 404) and says "reachable only" where nothing
// can prove it without sending (a generic webhook). Local stand-ins answer for the services.
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { runBin, tempHome } from "../helpers/run-bin.js";

describe("doctor on remote sinks", () => {
  it("a deleted Discord webhook (404) fails; a generic webhook is reachable only; nothing is sent", async () => {
    const discord = await startHttpServer([
      { status: 404, body: '{"message": "Unknown Webhook"}' },
    ]);
    const hook = await startHttpServer();
    const home = tempHome();
    home.writeConfig({
      sinks: {
        chat: { type: "chat", service: "discord", url: `${discord.url}/api/webhooks/1/gone` },
        hook: { type: "webhook", url: `${hook.url}/hook` },
      },
    });
    const doctor = await runBin(["doctor", "--json"], { env: home.env });
    const rows = JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[];
    expect(rows.find((row) => row.check === "discord (chat)")).toMatchObject({ status: "fail" });
    expect(rows.find((row) => row.check === "discord (chat)")?.detail).toContain("HTTP 404");
    expect(rows.find((row) => row.check === "webhook (hook)")).toMatchObject({
      status: "reachable",
    });
    expect(discord.requests.map((request) => request.method)).toEqual(["GET"]);
    expect(hook.requests).toEqual([]);
    const plain = await runBin(["doctor"], { env: home.env });
    expect(plain.stdout).toMatch(
      /^reachable only webhook \(hook\): .*cannot be proved without sending$/m,
    );
    expect(plain.stdout).toContain("prove it: hook-notify test --sink hook sends one sample");
  });

  it("a Discord webhook that exists is proved without a message", async () => {
    const discord = await startHttpServer([{ status: 200, body: '{"id": "1", "type": 1}' }]);
    const home = tempHome();
    home.writeConfig({
      sinks: {
        chat: { type: "chat", service: "discord", url: `${discord.url}/api/webhooks/1/ok` },
      },
    });
    const doctor = await runBin(["doctor", "--json"], { env: home.env });
    const rows = JSON.parse(doctor.stdout) as { check: string; status: string; detail: string }[];
    expect(rows.find((row) => row.check === "discord (chat)")).toMatchObject({ status: "ok" });
    expect(discord.requests.map((request) => request.method)).toEqual(["GET"]);
  });
});
