// The hook's own mask when no stamp holds (src/link/config-mask.ts): read from the config file by
// hand, it must mask at least every piece the validated config marks secret (a superset), so
// that an event the hook writes before any validation never holds a secret the worker would mask.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load-config.js";
import { secretKeysOfAllSinks } from "../../src/config/validate-entry.js";
import { configSecrets, SECRET_KEYS } from "../../src/link/config-mask.js";
import { maskOf, maskText, randomBases } from "../../src/link/stamp.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function configFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "hn-config-mask-"));
  dirs.push(dir);
  const file = join(dir, "config.json");
  writeFileSync(file, text);
  return file;
}

const env = {
  HN_HOOK_URL: "https://hooks.example.com/services/T000/B000/hookSECRETtoken123",
  HN_SMTP_PASS: "smtp pass with spaces 42",
  HN_API_KEY: "sk-service-key-0123456789",
  HN_TOPIC: "replyTopicSecret77",
  HN_HEADER: "Bearer headerTOKENvalue99",
};

// One entry of each kind of secret the schemas know, from the file and from ${VAR}s.
const config = {
  approveReplyTopic: "${HN_TOPIC}",
  service: { apiKey: "${HN_API_KEY}" },
  sinks: {
    hook: {
      type: "webhook",
      url: "${HN_HOOK_URL}",
      headers: { Authorization: "${HN_HEADER}" },
      secret: `whsec_${Buffer.from("a-webhook-signing-key-of-32-byte").toString("base64")}`,
    },
    mail: {
      type: "email",
      smtp: { host: "smtp.example.com", user: "mailUSER0001", pass: "${HN_SMTP_PASS}" },
      from: "hook-notify <me@example.com>",
      to: "me@example.com",
    },
    slack: {
      type: "chat",
      service: "slack",
      url: "https://hooks.slack.com/services/T1/B1/slackSECRETabcdef",
    },
    bot: { type: "chat", service: "telegram", botToken: "123456:telegramBOTtoken", chatId: "42" },
    future: { type: "a-sink-of-a-later-version", token: "unknownTypeTOKEN55" },
  },
};

describe("the hook's own mask of the config's secrets", () => {
  it("knows every option key that holds a secret in some sink's schema", () => {
    expect([...SECRET_KEYS].sort()).toEqual([...secretKeysOfAllSinks()].sort());
  });

  it("masks at least what the validated config marks secret, in every encoding", () => {
    const file = configFile(JSON.stringify(config));
    const validated = loadConfig(
      { env, homedir: "/nowhere", platform: "linux" },
      {
        configPath: file,
      },
    );
    const own = configSecrets(file, true, env);
    expect(own.broken).toBeUndefined();
    expect(validated.secrets.length).toBeGreaterThan(20);
    expect(validated.secrets.filter((piece) => !own.pieces.includes(piece))).toEqual([]);
    // And so the event the hook writes: a quoted secret of each kind becomes ***.
    const mask = maskOf(own.pieces, randomBases(Math.random));
    const quoted = [
      env.HN_HOOK_URL,
      encodeURIComponent(env.HN_SMTP_PASS),
      env.HN_API_KEY,
      env.HN_HEADER,
      "slackSECRETabcdef",
      "123456:telegramBOTtoken".toUpperCase(),
      "unknownTypeTOKEN55",
    ];
    const masked = maskText(JSON.stringify({ message: quoted.join(" and ") }), mask);
    for (const secret of [...quoted, "hookSECRETtoken123", "telegramBOTtoken"])
      expect(masked.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it("a missing default file masks nothing; a named one that is missing or broken says so", () => {
    const dir = mkdtempSync(join(tmpdir(), "hn-config-mask-"));
    dirs.push(dir);
    expect(configSecrets(join(dir, "config.json"), false, env)).toEqual({ pieces: [] });
    expect(configSecrets(join(dir, "config.json"), true, env).broken).toEqual({
      path: join(dir, "config.json"),
    });
    const broken = configFile('{ "sinks": { "hook": { "url": "${HN_HOOK_URL}" ');
    expect(configSecrets(broken, false, env)).toMatchObject({
      pieces: [],
      broken: { path: broken },
    });
  });
});
