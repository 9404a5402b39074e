// Issue 38: approvals travel only over TLS or loopback (the token and the signed Allow ride along).
import { describe, expect, it } from "vitest";
import { clearTextProblem, isLoopback, resolveSetup } from "../../src/approve/setup.js";
import { validateConfig } from "../../src/config/validate-config.js";

describe("clearTextProblem", () => {
  it.each([
    "https://ntfy.example/",
    "http://127.0.0.1:8080/",
    "http://127.9.9.9/",
    "http://[::1]:9/",
    "http://localhost:80/",
    "http://LOCALHOST/",
  ])("takes %s", (url) => {
    expect(clearTextProblem(url, "sinks.phone.url")).toBeUndefined();
  });

  it.each([
    "http://192.0.2.1/",
    "http://ntfy.lan.example/",
    "http://128.0.0.1/",
    "http://127.0.0.1.example/",
    "http://localhost.example/",
    "http://[::2]/",
    "http://10.0.0.1/",
  ])("refuses %s with the place and the fix", (url) => {
    expect(clearTextProblem(url, "sinks.phone.url")?.problem).toMatch(
      /^sinks\.phone\.url: approvals over plain http to .* Use https:\/\//,
    );
  });

  it("loopback is 127.0.0.0/8, ::1 and localhost only", () => {
    expect(["127.0.0.1", "127.255.255.254", "[::1]", "localhost"].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["0.0.0.0", "::ffff:7f00:1", "127.1", "localhost.localdomain"].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("resolveSetup refuses a clear-text channel (approve, test --approve, install, doctor)", () => {
  const config = (phone: Record<string, unknown>) =>
    validateConfig(
      {
        sinks: { phone: { type: "chat", ...phone } },
        approveReplyTopic: "hn-reply-0123456789abcdef",
      },
      {},
    ).value;

  it("an ntfy server over http that is not loopback", () => {
    const setup = resolveSetup(
      config({ service: "ntfy", url: "http://192.0.2.1/topic", token: "tk_x" }),
    );
    expect("problem" in setup && setup.problem).toMatch(
      /^sinks\.phone\.url: approvals over plain http to 192\.0\.2\.1/,
    );
  });

  it("a Telegram apiUrl over http that is not loopback", () => {
    const setup = resolveSetup(
      config({
        service: "telegram",
        botToken: "1:AA",
        chatId: 42,
        apiUrl: "http://bots.lan.example",
      }),
    );
    expect("problem" in setup && setup.problem).toMatch(
      /^sinks\.phone\.apiUrl: approvals over plain http/,
    );
  });

  it("loopback over http is taken (a local server, the tests' stand-ins)", () => {
    const setup = resolveSetup(
      config({ service: "ntfy", url: "http://127.0.0.1:8080/topic", token: "tk_x" }),
    );
    expect(setup).toMatchObject({ service: "ntfy", root: "http://127.0.0.1:8080/" });
  });
});
