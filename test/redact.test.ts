// The pieces of a secret that get masked, for the URL forms config values take: the Apprise forms
// WHATWG cannot parse (a Telegram token holds a ":" where a port goes) and tokens where a host goes.
import { describe, expect, it } from "vitest";
import { scrub, secretPartsOf } from "../src/redact.js";

const mask = (text: string, secret: string): string => scrub(text, secretPartsOf(secret));

describe("secretPartsOf", () => {
  it("masks a Telegram token on its own and its secret half", () => {
    const url = "tgram://123456789:AAHsecretPartOfTheToken_x/-100123";
    expect(mask("POST /bot123456789:AAHsecretPartOfTheToken_x/sendMessage", url)).toBe(
      "POST /bot***/sendMessage",
    );
    expect(mask("token AAHsecretPartOfTheToken_x", url)).toBe("token ***");
  });

  it("masks keys written where user and host go (pover://USER@TOKEN)", () => {
    const url = "pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@azGDORePK8gMaC0QOYAMyEEuzJnyUi";
    expect(mask("user=uQiRzpo4DXghDmr9QzzfQu27cmVRsG", url)).toBe("user=***");
    expect(mask("token=azGDORePK8gMaC0QOYAMyEEuzJnyUi", url)).toBe("token=***");
  });

  it("keeps a real host name of an Apprise form visible", () => {
    expect(
      mask("gotify.example.com answered", "gotifys://gotify.example.com/AzyoeNS.D4iJLVa"),
    ).toBe("gotify.example.com answered");
  });

  it("leaves a word alone that only a short URL path holds (a webhook at /hook)", () => {
    const url = "http://127.0.0.1:8080/hook";
    expect(mask("cd /tmp/hook-notify-x1 && ls", url)).toBe("cd /tmp/hook-notify-x1 && ls");
    expect(mask(`posted to ${url}`, url)).toBe("posted to ***");
  });

  it("still masks the path and query of an https URL", () => {
    const url = "https://hooks.slack.com/services/T0AAAA/B0BBBB/XXXXSECRETXXXX";
    expect(mask("see XXXXSECRETXXXX", url)).toBe("see ***");
  });
});
