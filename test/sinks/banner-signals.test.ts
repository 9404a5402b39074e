// The parser of dbus-monitor's output, fed with real captures: dbus-monitor 1.14 on a private bus
// with dbusmock's notification daemon, under the listener's own match rules (broadcast.txt: two
// banners, a dismissal by EmitSignal, a click on "default", a CloseNotification call; unicast.txt:
// NotificationClosed sent only to a sender that is gone, as GNOME Shell and dunst send it).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  closeReason,
  createSignalParser,
  type BannerSignal,
} from "../../src/sinks/banner-signals.js";

function parse(text: string): BannerSignal[] {
  const parser = createSignalParser();
  return text.split("\n").flatMap((line) => parser.push(line) ?? []);
}

const capture = (name: string) =>
  readFileSync(new URL(`../fixtures/dbus-monitor/${name}`, import.meta.url), "utf8");

describe("dbus-monitor output", () => {
  it("reads the ready mark, a dismissal, a click and a close by a call (broadcast)", () => {
    expect(parse(capture("broadcast.txt"))).toEqual([
      { kind: "ready" },
      { kind: "closed", id: "1", reason: "dismissed" },
      { kind: "clicked", id: "2", action: "default" },
      // dbusmock's CloseNotification answers with reason 1.
      { kind: "closed", id: "2", reason: "expired" },
    ]);
  });

  it("reads a NotificationClosed sent only to the banner's (gone) sender", () => {
    expect(parse(capture("unicast.txt"))).toEqual([
      { kind: "ready" },
      { kind: "closed", id: "1", reason: "dismissed" },
    ]);
  });

  it.each([
    ["1", "expired"],
    ["2", "dismissed"],
    ["3", "closed by a program"],
    ["4", "closed (reason undefined)"],
    ["9", "closed (reason 9, not in the spec)"],
  ])("reason %s is %s", (code, words) => {
    expect(closeReason(code)).toBe(words);
  });

  const header = (member: string, sender = ":1.0") =>
    `signal time=1.5 sender=${sender} -> destination=(null destination) serial=3 path=/org/freedesktop/Notifications; interface=org.freedesktop.Notifications; member=${member}`;

  it("reads approve's Allow, Deny and option actions by their fixed keys", () => {
    const click = (key: string) => [header("ActionInvoked"), "   uint32 7", `   string "${key}"`];
    const keys = ["hn-allow", "hn-deny", "hn-option-1", "hn-option-4"];
    expect(parse(keys.flatMap(click).join("\n"))).toEqual(
      keys.map((action) => ({ kind: "clicked", id: "7", action })),
    );
    expect(parse([...click("hn-option-5"), ...click("hn-option-12")].join("\n"))).toEqual([]);
  });

  it.each([
    [
      "a sender that is not a unique name",
      [header("NotificationClosed", "x"), "   uint32 1", "   uint32 2"],
    ],
    ["a signed argument", [header("NotificationClosed"), "   int32 1", "   int32 2"]],
    ["an action other than default", [header("ActionInvoked"), "   uint32 1", '   string "other"']],
    ["a quote inside the action", [header("ActionInvoked"), "   uint32 1", '   string "def"ault"']],
    ["id 0", [header("NotificationClosed"), "   uint32 0", "   uint32 2"]],
    ["an id past uint32", [header("NotificationClosed"), "   uint32 4294967296", "   uint32 2"]],
    ["another member", [header("ActivationToken"), "   uint32 1", '   string "default"']],
    [
      "a cut-off signal",
      [header("NotificationClosed"), "   uint32 1", header("Other"), "   uint32 2"],
    ],
    ["stray lines", ["   uint32 1", "   uint32 2", "garbage"]],
  ])("skips %s", (_what, lines) => {
    expect(parse(lines.join("\n"))).toEqual([]);
  });

  it("goes on after a skipped signal", () => {
    const lines = [header("NotificationClosed"), "   int32 1", header("NotificationClosed")];
    expect(parse([...lines, "   uint32 5", "   uint32 1"].join("\n"))).toEqual([
      { kind: "closed", id: "5", reason: "expired" },
    ]);
  });
});
