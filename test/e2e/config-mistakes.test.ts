// A config mistake is caught where it is made: the first hook run after the file changed says so
// in one desktop banner (with file:line:column), a file that is not JSON also on the hook's stderr
// (the hook reads the file itself; what the schema finds is found by the worker that runs the
// event, issue #41); later runs stay quiet; doctor says it every time and exits 1; log keeps it.
// The rest of the config (or the default) still delivers.
import { describe, expect, it } from "vitest";
import { fakeNotificationBus } from "../helpers/fake-notification-bus.js";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

const BANNER = "hook-notify: your config has a problem";

async function setup() {
  const bus = await fakeNotificationBus();
  const home = tempHome();
  const env = { ...home.env, DISPLAY: ":9", ...bus.env };
  const hook = () =>
    runBin(["--client", "claude-code"], { env, input: fixture("claude-code/Stop.json") });
  const banners = () => bus.calls().filter((call) => call.summary === BANNER);
  return { home, env, hook, banners };
}

describe("config mistakes, said where they are made", () => {
  it("a syntax error: once on the hook's stderr and in one banner, line and column; doctor exits 1", async () => {
    const { home, env, hook, banners } = await setup();
    const file = home.writeConfig(
      '{\n  "sinks": {\n    "desk": { "type": "desktop" }\n    "x": 1\n}\n',
    );
    const first = await hook();
    expect(first.stdout).toBe("");
    expect(first.code).not.toBe(2);
    expect(first.stderr).toContain(`${file}: invalid JSON at line 4 column 5`);
    expect(first.stderr).toContain("the built-in default (desktop and sound) delivers instead");
    const second = await hook();
    expect(second.stderr).not.toContain("invalid JSON");
    expect(banners()).toHaveLength(1);
    const doctor = await runBin(["doctor"], { env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain("invalid JSON at line 4 column 5");
    const log = await runBin(["log", "--failed"], { env });
    expect(log.stdout).toContain("CONFIG_INVALID");
    // A new version of the file is news again.
    home.writeConfig('{\n  "enabled": true,,\n}\n');
    expect((await hook()).stderr).toContain("invalid JSON at line 2");
    expect(banners()).toHaveLength(2);
  });

  it("one misspelt key in one of two sinks: the other still delivers; the place and the likely key are said", async () => {
    const { home, env, hook, banners } = await setup();
    const server = await startHttpServer();
    const file = home.writeConfig(
      `{\n  "sinks": {\n    "desk": { "type": "desktop", "backnd": "auto" },\n    "hook": { "type": "webhook", "url": "${server.url}/hook" }\n  }\n}\n`,
    );
    const first = await hook();
    expect(first).toMatchObject({ code: 0, stdout: "" });
    await expect.poll(() => banners()).toHaveLength(1);
    expect(banners()[0]?.body).toContain(
      `${file}:3:34: sinks.desk.backnd: unknown setting. Did you mean "backend"?`,
    );
    await server.waitForRequests(1);
    const second = await hook();
    expect(second.stderr).toBe("");
    expect(banners()).toHaveLength(1);
    const doctor = await runBin(["doctor"], { env });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(`${file}:3:34: sinks.desk.backnd`);
  });
});
