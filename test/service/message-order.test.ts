// The order of messages the document leaves open: createdAt, updatedAt, parentId links, and the
// list's position only as a last resort (said so); hidden messages are never the "last answer".
import { describe, expect, it } from "vitest";
import { newestVisible, orderMessages } from "../../src/service/message-order.js";
import type { Message } from "../../src/service/schemas.js";

const m = (id: string, extra: Partial<Message> = {}): Message => ({
  id,
  content: [{ text: id }],
  ...extra,
});

describe("orderMessages", () => {
  it("sorts by createdAt whatever the list order, ties kept as listed", () => {
    const listed = [m("c", { createdAt: 3 }), m("a", { createdAt: 1 }), m("b", { createdAt: 1 })];
    expect(orderMessages(listed).messages.map((x) => x.id)).toEqual(["a", "b", "c"]);
  });

  it("uses updatedAt when createdAt is missing on any message", () => {
    const listed = [m("b", { updatedAt: 2, createdAt: 9 }), m("a", { updatedAt: 1 })];
    expect(orderMessages(listed)).toEqual({ messages: [listed[1], listed[0]], guessed: false });
  });

  it("follows parentId links: a newest-first list is turned round", () => {
    const listed = [m("c", { parentId: "b" }), m("b", { parentId: "a" }), m("a")];
    expect(orderMessages(listed)).toEqual({ messages: [...listed].reverse(), guessed: false });
  });

  it("takes the list's position and says it guessed when nothing gives the order", () => {
    const listed = [m("x"), m("y")];
    expect(orderMessages(listed)).toEqual({ messages: listed, guessed: true });
    expect(orderMessages([m("x")]).guessed).toBe(false);
  });
});

describe("newestVisible", () => {
  it("skips a hidden newest message", () => {
    const listed = [
      m("hidden", { createdAt: 3, isUserVisible: false }),
      m("answer", { createdAt: 2 }),
      m("old", { createdAt: 1 }),
    ];
    expect(newestVisible(listed).message?.id).toBe("answer");
    expect(newestVisible([m("h", { isUserVisible: false })]).message).toBeUndefined();
  });
});
