// doctor's text: a fix is said once, after the checks that share it, and never twice in one line.
import { describe, expect, it } from "vitest";
import { fail, ok, warn } from "../../src/check-result.js";
import { renderResults } from "../../src/doctor/render.js";
import { createStyle } from "../../src/style.js";

const plain = createStyle({ isTTY: false }, {});

describe("doctor's fixes", () => {
  it("checks sharing a fix get it once; a fix that ends the detail is not said twice", () => {
    const fix = "Use a chat or e-mail sink on this machine.";
    const text = renderResults(
      [
        fail("desktop", `no desktop session here. ${fix}`, fix),
        fail("sound", "no sound server here", fix),
        ok("node", "v24"),
        warn("voice", "no speech program", fix),
        warn("outbox", "3 waiting", "Run hook-notify flush."),
      ],
      plain,
    );
    expect(text.split(fix)).toHaveLength(2);
    expect(text).toBe(
      [
        "failed desktop: no desktop session here.",
        "failed sound: no sound server here",
        `    fix: ${fix}`,
        "ok node: v24",
        "warn voice: no speech program",
        "    fix: as for desktop",
        "warn outbox: 3 waiting",
        "    fix: Run hook-notify flush.",
        "",
        "2 problem(s), 2 warning(s).",
        "",
      ].join("\n"),
    );
  });
});
