// The schemas' secret marks decide what is masked: every marked field's value, nothing else.
import { describe, expect, it } from "vitest";
import { entrySchemaFor } from "../src/config/schema.js";
import { maskSecrets, secretValuesOf } from "../src/secret-values.js";
import { validateConfig } from "../src/config/validate-config.js";
import { scrub, scrubValue, secretPartsOf } from "../src/redact.js";
import { findSink } from "../src/sinks/index.js";
import { sampleNotification, testDeps } from "./helpers/sample-notification.js";

const email = {
  type: "email",
  smtp: { host: "smtp.example.test", port: 587, user: "AKIAEXAMPLEUSER", pass: "p4ss-word" },
  from: "agent@example.test",
  to: ["me@example.test"],
};
const webhook = {
  type: "webhook",
  url: "https://hooks.example.test/in/tok3n-in-path",
  headers: { Authorization: "Bearer header-secret" },
  secret: `whsec_${Buffer.from("x".repeat(24)).toString("base64")}`,
};

describe("secretValuesOf", () => {
  it("collects exactly the fields the schemas mark secret", () => {
    const sink = (type: string) => entrySchemaFor(findSink(type) ?? (undefined as never));
    expect(secretValuesOf(sink("email"), email).sort()).toEqual(["AKIAEXAMPLEUSER", "p4ss-word"]);
    expect(secretValuesOf(sink("webhook"), webhook).sort()).toEqual(
      [webhook.url, "Bearer header-secret", webhook.secret].sort(),
    );
    const chat = { type: "chat", service: "ntfy", url: "https://ntfy.sh/t0pic", token: "tk_abc" };
    expect(secretValuesOf(sink("chat"), chat).sort()).toEqual(["https://ntfy.sh/t0pic", "tk_abc"]);
  });

  it("feeds validateConfig: valid, invalid and unknown-type entries all give up their secrets", () => {
    const { secrets } = validateConfig(
      {
        sinks: {
          mail: email,
          broken: { ...email, smtp: { ...email.smtp, port: "x", user: "broken-user-1" } },
          alien: { type: "pager", token: "alien-token-1", label: "not secret" },
        },
      },
      {},
    );
    for (const value of ["AKIAEXAMPLEUSER", "p4ss-word", "broken-user-1", "alien-token-1"])
      expect(secrets).toContain(value);
    expect(secrets).not.toContain("smtp.example.test");
    expect(secrets).not.toContain("not secret");
  });

  it("reads a key named like a member of Object.prototype as an unknown key, not a schema", () => {
    // A person's typo ("toString" inside escalate) made the walk treat Object.prototype.toString
    // as a schema: `doctor` died with "Cannot read properties of undefined (reading 'parent')".
    const odd = JSON.parse(
      '{"toString": false, "constructor": "x", "__proto__": "y", "valueOf": {"hasOwnProperty": 1}}',
    ) as Record<string, unknown>;
    const entry = { ...email, escalate: odd, smtp: { ...email.smtp, ...odd } };
    const { issues, secrets } = validateConfig({ sinks: { mail: entry } }, {});
    expect(issues.join("\n")).toMatch(/sinks\.mail\.escalate/);
    expect(secrets).toContain("p4ss-word");
    const schema = entrySchemaFor(findSink("email") ?? (undefined as never));
    expect(JSON.stringify(maskSecrets(schema, entry))).not.toContain("p4ss-word");
  });
});

describe("maskSecrets", () => {
  it.each([email, webhook])(
    "shows every marked field as *** and keeps the rest ($type)",
    (entry) => {
      const schema = entrySchemaFor(findSink(entry.type) ?? (undefined as never));
      const masked = maskSecrets(schema, entry);
      expect(secretValuesOf(schema, masked).every((value) => value === "***")).toBe(true);
      for (const secret of secretValuesOf(schema, entry)) {
        expect(JSON.stringify(masked)).not.toContain(secret);
      }
      expect(masked.type).toBe(entry.type);
    },
  );

  it("is what the email sink's --dry-run payload shows: smtp.user masked like smtp.pass", () => {
    const sink = findSink("email");
    const options = { smtp: email.smtp, from: email.from, to: email.to };
    const rendered = JSON.stringify(sink?.render(sampleNotification(), options, testDeps({})));
    expect(rendered).toContain('"user":"***"');
    expect(rendered).toContain('"pass":"***"');
    expect(rendered).toContain("smtp.example.test");
  });
});

describe("scrub", () => {
  it("masks a secret in any letter case and in its encodings", () => {
    const secret = "Tok3n/with:odd chars";
    const parts = secretPartsOf(secret);
    for (const form of [
      secret,
      secret.toLowerCase(),
      encodeURIComponent(secret),
      JSON.stringify(secret).slice(1, -1),
      Buffer.from(secret).toString("base64"),
      Buffer.from(secret).toString("base64url"),
    ])
      expect(scrub(`before ${form} after`, parts)).toBe("before *** after");
  });

  it("scrubs keys and values of a value nested 10,000 levels deep, keeping key order", () => {
    let deep: unknown = "s3cret-value";
    for (let i = 0; i < 10_000; i++) deep = { [`k${String(i % 2)}`]: deep };
    expect(() => scrubValue(deep, ["s3cret-value"])).not.toThrow();
    const flat = scrubValue({ b: "s3cret-value", a: 1, "s3cret-value": true }, ["s3cret-value"]);
    expect(JSON.stringify(flat)).toBe('{"b":"***","a":1,"***":true}');
  });
});
