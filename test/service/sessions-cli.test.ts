// `hook-notify sessions` through the built binary against the local fake, on the paths a person
// types: a reply that starts with -, comes after --, or on stdin arrives exactly as typed; an id
// that is a dot segment or starts with - is refused before any request; who said what is shown
// when the messages carry no role; hidden messages only with --all; tags added and removed;
// flags an action would drop are refused with exit 2; a refusal of the service exits 3.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeOptions } from "../../scripts/fake-service/server.mjs";
import { startFakeService } from "../helpers/fake-service.js";
import { runBin, tempHome } from "../helpers/run-bin.js";

async function setup(options: FakeOptions = {}) {
  const fake = await startFakeService({ apiKey: "sessions-cli-key-0123456789", ...options });
  const home = tempHome({ FACTORY_API_KEY: fake.apiKey });
  home.writeConfig({ service: { baseUrl: fake.url, apiKey: "${FACTORY_API_KEY}" } });
  const run = (args: string[], input?: string) =>
    runBin(["sessions", ...args], {
      env: home.env,
      settle: false,
      ...(input === undefined ? {} : { input }),
    });
  const sentTexts = () => (fake.sent ?? []).map((s) => s.body["text"]);
  return { fake, home, run, sentTexts };
}

describe("hook-notify sessions send", () => {
  it.each([
    [["sess-idle", "--", "--force the deploy"], undefined, "--force the deploy"],
    [["sess-idle", "--", "-1 is wrong"], undefined, "-1 is wrong"],
    [["sess-idle", "ship", "it", "now"], undefined, "ship it now"],
    [["sess-idle", "ship", "--", "-it"], undefined, "ship -it"],
    [["sess-idle", "-5 degrees"], undefined, "-5 degrees"],
    [["sess-idle", "-5"], undefined, "-5"],
    [["sess-idle", "-"], "text from stdin\n", "text from stdin"],
    [["sess-idle", "--text-file", "-"], "  two\nlines\n", "  two\nlines"],
  ])("send %j delivers exactly the text", async (args, input, expected) => {
    const ctx = await setup();
    const result = await ctx.run(["send", ...args], input);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(ctx.sentTexts()).toEqual([expected]);
    expect(result.stdout).toMatch(/^Sent msg-\S+ to sess-idle: .*; the session is running\.\n$/);
  });

  it("--json reports the message id and the status", async () => {
    const ctx = await setup();
    const result = await ctx.run(["send", "sess-idle", "--json", "--", "hi"]);
    const sent = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(sent).toMatchObject({ sessionId: "sess-idle", status: "running", characters: 2 });
    expect(sent["messageId"]).toMatch(/^msg-/);
  });

  it.each([
    [[".."], "hi"],
    [["."], "hi"],
    [["--", "-rf"], "hi"],
    [["a/b"], "hi"],
  ])("refuses the id in %j with exit 2 and no request", async (id, text) => {
    const ctx = await setup();
    const result = await ctx.run(["send", ...id, text]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^hook-notify sessions send: (USAGE: )?(session|give|unexpected)/m,
    );
    expect(ctx.fake.requests).toHaveLength(0);
  });

  it.each([
    [["sess-idle"], undefined],
    [["sess-idle", "--", "   "], undefined],
    [["sess-idle", "-"], ""],
    [["sess-idle", "hi", "--file"], undefined],
    [["sess-idle", "hi", "--image", "NOTES"], undefined],
    [["sess-idle", "hi", "--file", "BINARY"], undefined],
    [["sess-idle", "hi", "--file", "missing.txt"], undefined],
    [["sess-idle", "hi", "--text-file", "NOTES"], undefined],
  ])("refuses %j with exit 2 before any request", async (args, input) => {
    const ctx = await setup();
    const notes = join(ctx.home.dir, "notes.md");
    const binary = join(ctx.home.dir, "shot.bin");
    writeFileSync(notes, "# notes\n");
    writeFileSync(binary, Buffer.from([0, 1, 2, 0xff, 0xfe]));
    const real = args.map((a) => (a === "NOTES" ? notes : a === "BINARY" ? binary : a));
    const result = await ctx.run(["send", ...real], input);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(ctx.fake.requests).toHaveLength(0);
  });

  it("names -- for a reply shaped like a flag, and the option meant by a mistyped one", async () => {
    const ctx = await setup();
    const flag = await ctx.run(["send", "sess-idle", "-x"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      'put the message after --: hook-notify sessions send sess-idle -- "-x …"',
    );
    const typo = await ctx.run(["list", "--limt", "2"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown option --limt. Did you mean --limit?");
    expect(ctx.fake.requests).toHaveLength(0);
  });

  it("attaches a text file by its name only, never the local path", async () => {
    const ctx = await setup();
    const notes = join(ctx.home.dir, "notes.md");
    writeFileSync(notes, "for the agent\n");
    const result = await ctx.run(["send", "sess-idle", "see", "the", "notes", "--file", notes]);
    expect(result.code).toBe(0);
    const body = ctx.fake.sent?.[0]?.body;
    expect(body).toMatchObject({
      text: "see the notes",
      files: [{ name: "notes.md", parsedData: "for the agent\n" }],
    });
    expect(JSON.stringify(body)).not.toContain(ctx.home.dir);
  });
});

describe("hook-notify sessions messages and update", () => {
  it(
    "shows who said what from per-role listings when the messages have no role; hidden only with --all",
    { timeout: 30_000 },
    async () => {
      const ctx = await setup({ messagesOmitRole: true, messageOrder: "newest" });
      ctx.fake.apply([
        { op: "message", sessionId: "sess-idle", role: "user", text: "deploy it" },
        { op: "message", sessionId: "sess-idle", role: "tool", text: "exit 0" },
        { op: "message", sessionId: "sess-idle", role: "assistant", text: "Deployed." },
        {
          op: "message",
          sessionId: "sess-idle",
          role: "assistant",
          text: "NOTE",
          isUserVisible: false,
        },
      ]);
      const plain = await ctx.run(["messages", "sess-idle"]);
      expect(plain.code).toBe(0);
      expect(
        plain.stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => l.replace(/^\S+ \S+\s+/, "")),
      ).toEqual(["user: deploy it", "tool: exit 0", "assistant: Deployed."]);
      const all = await ctx.run(["messages", "sess-idle", "--all"]);
      expect(all.stdout).toContain("assistant (hidden): NOTE");
      const role = await ctx.run(["messages", "sess-idle", "--role", "user"]);
      expect(role.stdout).toMatch(/ user: deploy it\n$/);
    },
  );

  it(
    "adds and removes tags, archives, and refuses create-only flags on update",
    { timeout: 60_000 },
    async () => {
      const ctx = await setup();
      expect(
        (await ctx.run(["update", "sess-idle", "--tag", "a", "--tag", 'b={"team":"web"}'])).code,
      ).toBe(0);
      expect(
        (await ctx.run(["update", "sess-idle", "--add-tag", "c", "--remove-tag", "a"])).code,
      ).toBe(0);
      const patched = ctx.fake.requests
        .filter((r) => r.method === "PATCH")
        .map((r) => JSON.parse(r.body) as unknown);
      expect(patched.at(-1)).toEqual({
        sessionSettings: { tags: [{ name: "b", metadata: { team: "web" } }, { name: "c" }] },
      });
      expect((await ctx.run(["update", "sess-idle", "--archive", "--compaction-check"])).code).toBe(
        0,
      );
      expect(ctx.fake.requests.at(-1)?.body).toMatch(
        /"archivedAt":"20\d\d-.*"compactionThresholdCheckEnabled":true/,
      );
      const before = ctx.fake.requests.length;
      for (const args of [
        ["update", "sess-idle", "--cwd", "/x"],
        ["update", "sess-idle", "--setting", "tokenUsage={}"],
        ["update", "sess-idle", "--setting", 'modle="x"'],
        ["list", "--computer", ""],
        ["get", "sess-idle", "--model", "m"],
      ]) {
        const result = await ctx.run(args);
        expect({ args, code: result.code }).toEqual({ args, code: 2 });
      }
      expect(ctx.fake.requests.length).toBe(before);
    },
  );

  it(
    "exits 3 when the service refuses (404), 1 when it fails (500), and says how long it waited",
    { timeout: 30_000 },
    async () => {
      const ctx = await setup();
      expect((await ctx.run(["get", "nope"])).code).toBe(3);
      ctx.fake.fail({ path: "/api/v0/sessions", status: 500 });
      expect((await ctx.run(["list"])).code).toBe(1);
      ctx.fake.fail({ path: "/api/v0/sessions", hang: true });
      const hung = await ctx.run(["list", "--timeout", "1"]);
      expect(hung.code).toBe(1);
      expect(hung.stderr).toContain("Waited 1 s (--timeout to change it).");
    },
  );
});

describe("the service's setup", () => {
  it(
    "names an unknown key of service with the one it most likely meant, and doctor exits 1 on a rejected key",
    { timeout: 60_000 },
    async () => {
      const ctx = await setup();
      ctx.home.writeConfig({
        service: { baseUrl: ctx.fake.url, apiKey: "${FACTORY_API_KEY}", intervalSecond: 60 },
      });
      const typo = await ctx.run(["list"]);
      expect(typo.code).toBe(1);
      expect(typo.stderr).toContain(
        'service.intervalSecond: unknown setting. Did you mean "intervalSeconds"?',
      );
      ctx.home.writeConfig({ service: { baseUrl: ctx.fake.url, apiKey: "wrong-key-0123456789" } });
      const doctor = await runBin(["doctor"], { env: ctx.home.env, settle: false });
      expect(doctor.stdout + doctor.stderr).toMatch(/service key/);
      expect(doctor.code).toBe(1);
    },
  );
});
