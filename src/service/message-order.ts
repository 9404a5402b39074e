// The order of a session's messages, which the document does not give: by createdAt when every
// message has it, else by updatedAt, else by the parentId links between listed messages (a
// message's parent came before it), else by the list's position (oldest first assumed), and then
// the answer says it guessed. Hidden messages (isUserVisible false) are for the agent, not for a
// person: never quoted, sent or shown unless asked for. Pure.
import type { Message } from "./schemas.js";

export interface Ordered {
  /** Oldest first. */
  messages: Message[];
  /** True when nothing in the messages told the order and the list's position was taken. */
  guessed: boolean;
}

// The messages oldest first, and whether that order is a guess.
export function orderMessages(listed: readonly Message[]): Ordered {
  for (const key of ["createdAt", "updatedAt"] as const) {
    if (listed.length > 0 && listed.every((m) => typeof m[key] === "number")) {
      const indexed = listed.map((message, at) => ({ message, at }));
      indexed.sort((a, b) => (a.message[key] ?? 0) - (b.message[key] ?? 0) || a.at - b.at);
      return { messages: indexed.map((x) => x.message), guessed: false };
    }
  }
  const direction = linkDirection(listed);
  if (direction === "newest") return { messages: [...listed].reverse(), guessed: false };
  return { messages: [...listed], guessed: direction === undefined && listed.length > 1 };
}

// "oldest" when the listed messages' parentId links point back up the list, "newest" when they
// point down it, undefined when no listed message names another listed one as its parent.
function linkDirection(listed: readonly Message[]): "oldest" | "newest" | undefined {
  const at = new Map(listed.map((m, i) => [m.id, i]));
  let up = 0;
  let down = 0;
  listed.forEach((m, i) => {
    const parent = m.parentId ? at.get(m.parentId) : undefined;
    if (parent === undefined) return;
    if (parent < i) up++;
    else if (parent > i) down++;
  });
  if (up === down) return undefined;
  return up > down ? "oldest" : "newest";
}

// Visible to the person: isUserVisible is not false.
export function isVisible(message: Message): boolean {
  return message.isUserVisible !== false;
}

// The newest visible message, and whether the order was guessed.
export function newestVisible(listed: readonly Message[]): {
  message: Message | undefined;
  guessed: boolean;
} {
  const { messages, guessed } = orderMessages(listed);
  return { message: messages.filter(isVisible).at(-1), guessed };
}
