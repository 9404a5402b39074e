// A banner's buttons (sinks/banner-answer.ts): Allow and Deny, or a question's options as inert,
// bounded labels behind fixed keys; only a key (or on macOS a label) the banner offered answers.
import { describe, expect, it } from "vitest";
import { macAnswer } from "../../src/sinks/banner-actions-other.js";
import {
  answerOfKey,
  bannerButtons,
  MAX_BUTTON_LABEL,
  type BannerButton,
  type BannerQuestion,
} from "../../src/sinks/banner-answer.js";

const asked = (options?: string[]) => ({ options }) as unknown as BannerQuestion;

function buttons(options: string[] | undefined, room = 3, unsafe?: RegExp): BannerButton[] {
  const made = bannerButtons(asked(options), room, unsafe);
  if ("none" in made) throw new Error(made.none);
  return [...made];
}

describe("banner buttons", () => {
  it("a permission request: Allow and Deny", () => {
    expect(buttons(undefined)).toEqual([
      { key: "hn-allow", label: "Allow" },
      { key: "hn-deny", label: "Deny" },
    ]);
  });

  it("a question: one fixed key per option, labels inert, one line, bounded", () => {
    const made = buttons(["Go\u001b]8;;x\u0007 now\nplease", "é".repeat(50)]);
    expect(made.map((b) => b.key)).toEqual(["hn-option-1", "hn-option-2"]);
    expect(["\n", "\u001b", "\u0007"].some((c) => made[0]!.label.includes(c))).toBe(false);
    expect(Array.from(made[1]!.label)).toHaveLength(MAX_BUTTON_LABEL);
    expect(buttons(["a,b", "c"], 4, /,/g).map((b) => b.label)).toEqual(["a b", "c"]);
  });

  it("more options than fit, or labels alike once made safe: no banner, and why", () => {
    expect(bannerButtons(asked(["a", "b", "c", "d"]), 3)).toEqual({
      none: "the question has 4 options and this banner shows at most 3 buttons; the phone answers",
    });
    expect(bannerButtons(asked(["a,b", "a b"]), 4, /,/g)).toMatchObject({
      none: expect.stringMatching(/alike/) as string,
    });
  });

  it("only a key this banner offered answers", () => {
    const question = buttons(["SQLite", "MySQL"]);
    expect(answerOfKey(question, "hn-option-2")).toEqual({ option: 1 });
    expect(answerOfKey(question, "hn-allow")).toBeUndefined();
    expect(answerOfKey(question, "hn-option-3")).toBeUndefined();
    expect(answerOfKey(buttons(undefined), "hn-option-1")).toBeUndefined();
    expect(answerOfKey(buttons(undefined), "hn-deny", "x")).toEqual({ answer: "deny", via: "x" });
  });

  it("macOS: only an actionClicked on an offered label answers", () => {
    const question = buttons(["SQLite", "MySQL"], 4);
    const said = (value: string, type = "actionClicked") =>
      JSON.stringify({ activationType: type, activationValue: value });
    expect(macAnswer(said("MySQL"), question)).toEqual({ option: 1, via: "terminal-notifier" });
    expect(macAnswer(said("Allow"), question)).toHaveProperty("none");
    expect(macAnswer(said("MySQL", "contentsClicked"), question)).toHaveProperty("none");
  });
});
