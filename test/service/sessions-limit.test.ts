// `sessions messages --limit N` reads only what it needs when the list comes newest first (by
// createdAt, or by parentId links when the messages carry no time), also when the roles must be
// learnt from per-role listings; oldest first, the document leaves no way but reading to the end.
import { describe, expect, it } from "vitest";
import type { FakeOptions } from "../../scripts/fake-service/server.mjs";
import { runSessions } from "../../src/commands/sessions-run.js";
import { serviceSetup } from "./service-io.js";

async function messagesRead(options: FakeOptions, limit: number) {
  const ctx = await serviceSetup({}, options);
  for (let i = 0; i < 250; i++)
    ctx.fake.apply({
      op: "message",
      sessionId: "sess-idle",
      role: i % 2 ? "assistant" : "user",
      text: `m${String(i)}`,
    });
  const code = await runSessions(ctx.io, {
    configPath: ctx.configPath,
    action: "messages",
    id: "sess-idle",
    json: false,
    all: false,
    limit,
    settings: {},
  });
  const pages = ctx.fake.requests.filter((r) => r.path.endsWith("/messages")).length;
  return { code, pages, shown: ctx.out.map((l) => l.replace(/^.*?\s{2}/, "")) };
}

describe("sessions messages --limit", () => {
  it.each<[string, FakeOptions, number]>([
    ["newest first", { messageOrder: "newest" }, 1],
    [
      "newest first, no createdAt (parentId links)",
      { messageOrder: "newest", messagesOmitCreatedAt: true },
      1,
    ],
    [
      "newest first, no role (learnt per role)",
      { messageOrder: "newest", messagesOmitRole: true },
      3,
    ],
    ["oldest first (read to the end)", {}, 3],
  ])("%s: the last 3, reading no more pages than needed", async (_, options, mainPages) => {
    const { code, pages, shown } = await messagesRead(options, 3);
    expect(code).toBe(0);
    expect(shown).toEqual(["assistant: m247", "user: m248", "assistant: m249"]);
    // The per-role listings (no role on the messages) stop once the three are placed.
    expect(pages).toBeLessThanOrEqual(mainPages + (options.messagesOmitRole ? 2 : 0));
  });
});
