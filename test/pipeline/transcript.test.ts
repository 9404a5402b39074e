import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { readTranscriptFacts } from "../../src/pipeline/transcript.js";

const TRANSCRIPTS = join(import.meta.dirname, "..", "fixtures", "transcripts");

// One transcript line per record, as both clients write them.
const jsonl = (...records: unknown[]): string =>
  records.map((r) => JSON.stringify(r)).join("\n") + "\n";

const claudeAssistant = (text: string, extra: Record<string, unknown> = {}): unknown => ({
  type: "assistant",
  isSidechain: false,
  message: { role: "assistant", content: [{ type: "text", text }] },
  ...extra,
});
const claudeUser = (text: string): unknown => ({
  type: "user",
  message: { role: "user", content: text },
});
const customTitle = { type: "custom-title", customTitle: "My own name" };
const aiTitle = { type: "ai-title", aiTitle: "Fix the checkout total" };
const summary = { type: "summary", summary: "Checkout work", leafUuid: "x" };
const droidStart = { type: "session_start", id: "s", title: "Refactor the checkout flow" };
const droidAssistant = (content: unknown): unknown => ({
  type: "message",
  message: { role: "assistant", content },
});

async function transcript(text: string | Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hook-notify-transcript-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "session.jsonl");
  await writeFile(file, text);
  return file;
}

describe("readTranscriptFacts on captured transcripts", () => {
  it.each([
    [
      "claude-code-session.jsonl",
      {
        lastAssistantMessage: "All done after the tool ran.",
        lastUserAt: Date.parse("2026-11-22T12:41:53.422Z"), // the prompt, not the tool result
      },
    ],
    [
      "droid-session.jsonl",
      { title: "Refactor the checkout flow", lastUserAt: Date.parse("2026-11-22T12:41:55.513Z") },
    ],
  ])("%s", (name, facts) => {
    expect(readTranscriptFacts(join(TRANSCRIPTS, name))).toEqual(facts);
  });
});

describe("readTranscriptFacts titles", () => {
  it.each([
    ["custom-title beats ai-title and summary", [summary, aiTitle, customTitle], "My own name"],
    ["custom-title wins even when written first", [customTitle, aiTitle, summary], "My own name"],
    ["ai-title beats summary", [aiTitle, summary], "Fix the checkout total"],
    ["summary alone", [summary], "Checkout work"],
    ["the later of two ai-titles", [aiTitle, { ...aiTitle, aiTitle: "Renamed" }], "Renamed"],
    [
      "a blank custom-title is skipped",
      [aiTitle, { ...customTitle, customTitle: "  " }],
      "Fix the checkout total",
    ],
    [
      "Droid's session_start line",
      [droidStart, droidAssistant("hi")],
      "Refactor the checkout flow",
    ],
    ["trimmed", [{ ...aiTitle, aiTitle: "  padded \n" }], "padded"],
    [
      "a title of the wrong type is skipped",
      [{ ...customTitle, customTitle: 7 }, summary],
      "Checkout work",
    ],
  ])("%s", async (_case, records, title) => {
    expect(readTranscriptFacts(await transcript(jsonl(...records))).title).toBe(title);
  });

  it("has no title when no line carries one", async () => {
    const facts = readTranscriptFacts(await transcript(jsonl(claudeUser("hi"))));
    expect(facts).toEqual({});
  });
});

describe("readTranscriptFacts last assistant message", () => {
  it.each([
    [
      "the last of several",
      [claudeAssistant("first"), claudeUser("more"), claudeAssistant("second")],
      "second",
    ],
    [
      "text blocks joined, tool use left out",
      [
        {
          type: "assistant",
          message: {
            role: "assistant",
            content: [
              { type: "text", text: "Part one." },
              { type: "tool_use", name: "Bash", input: {} },
              { type: "text", text: " Part two. " },
            ],
          },
        },
      ],
      "Part one.\nPart two.",
    ],
    [
      "an assistant line with only tool use keeps the earlier text",
      [
        claudeAssistant("Real answer"),
        { type: "assistant", message: { role: "assistant", content: [{ type: "tool_use" }] } },
      ],
      "Real answer",
    ],
    [
      "sidechain (subagent) lines skipped",
      [claudeAssistant("main"), claudeAssistant("side", { isSidechain: true })],
      "main",
    ],
    [
      "Droid string content",
      [droidStart, droidAssistant("  Droid says done  ")],
      "Droid says done",
    ],
    ["Droid block content", [droidAssistant([{ type: "text", text: "Blocks" }])], "Blocks"],
    ["user lines never count", [claudeUser("I am the user")], undefined],
    ["blank text never counts", [claudeAssistant("kept"), droidAssistant("   ")], "kept"],
  ])("%s", async (_case, records, message) => {
    const facts = readTranscriptFacts(await transcript(jsonl(...records)));
    expect(facts.lastAssistantMessage).toBe(message);
  });

  it("skips lines that are not JSON objects", async () => {
    const text = `garbage\n[1,2]\n"str"\n{"broken":\n${jsonl(claudeAssistant("survived"))}null\n`;
    const facts = readTranscriptFacts(await transcript(text));
    expect(facts).toEqual({ lastAssistantMessage: "survived" });
  });

  it("reads a file without a final newline", async () => {
    const text = jsonl(aiTitle, claudeAssistant("no newline at the end")).trimEnd();
    expect(readTranscriptFacts(await transcript(text))).toEqual({
      title: "Fix the checkout total",
      lastAssistantMessage: "no newline at the end",
    });
  });
});

describe("readTranscriptFacts: when the turn began (lastUserAt)", () => {
  const at = (iso: string, extra: Record<string, unknown> = {}, content: unknown = "do it") => ({
    type: "user",
    timestamp: iso,
    message: { role: "user", content },
    ...extra,
  });
  const toolResult = [{ type: "tool_result", tool_use_id: "t", content: "ok" }];

  it.each<[string, unknown[], string | undefined]>([
    ["one prompt", [at("2026-11-22T10:00:00.000Z")], "2026-11-22T10:00:00.000Z"],
    [
      "the last prompt wins",
      [at("2026-11-22T10:00:00.000Z"), at("2026-11-22T10:05:00.000Z")],
      "2026-11-22T10:05:00.000Z",
    ],
    [
      "a tool result is not a prompt",
      [at("2026-11-22T10:00:00.000Z"), at("2026-11-22T10:09:00.000Z", {}, toolResult)],
      "2026-11-22T10:00:00.000Z",
    ],
    [
      "nor a sidechain or meta line",
      [
        at("2026-11-22T10:00:00.000Z"),
        at("2026-11-22T10:01:00.000Z", { isSidechain: true }),
        at("2026-11-22T10:02:00.000Z", { isMeta: true }),
      ],
      "2026-11-22T10:00:00.000Z",
    ],
    ["a prompt without a timestamp tells nothing", [claudeUser("hi")], undefined],
    ["an unreadable timestamp neither", [at("yesterday")], undefined],
  ])("%s", async (_case, records, expected) => {
    const facts = readTranscriptFacts(await transcript(jsonl(...records)));
    expect(facts.lastUserAt).toBe(expected === undefined ? undefined : Date.parse(expected));
  });

  it("finds the last prompt in the tail window of a 5 MiB transcript (no second read)", async () => {
    const filler = jsonl(claudeUser("x".repeat(1000))).repeat(5 * 1024);
    const text = filler + jsonl(at("2026-11-22T11:00:00.000Z"), claudeAssistant("done"));
    expect(readTranscriptFacts(await transcript(text)).lastUserAt).toBe(
      Date.parse("2026-11-22T11:00:00.000Z"),
    );
  });
});

describe("readTranscriptFacts reads only the edges of big files", () => {
  // ~5 MiB of ordinary lines between a head and a tail.
  const filler = (): string => jsonl(claudeUser("x".repeat(1000))).repeat(5 * 1024);

  it("finds the title at the head and the message at the tail of a 5 MiB transcript", async () => {
    const text = jsonl(aiTitle) + filler() + jsonl(claudeAssistant("the very end"));
    expect(Buffer.byteLength(text)).toBeGreaterThan(5 * 1024 * 1024);
    expect(readTranscriptFacts(await transcript(text))).toEqual({
      title: "Fix the checkout total",
      lastAssistantMessage: "the very end",
    });
  });

  it("does not see a line in the middle", async () => {
    const text =
      jsonl(droidStart) + filler() + jsonl(customTitle, claudeAssistant("middle")) + filler();
    expect(readTranscriptFacts(await transcript(text))).toEqual({
      title: "Refactor the checkout flow",
    });
  });

  it("skips a final line longer than the 64 KiB tail window (it is cut)", async () => {
    const long = claudeAssistant("y".repeat(100 * 1024));
    const text = jsonl(aiTitle) + filler() + jsonl(claudeAssistant("before"), long);
    expect(readTranscriptFacts(await transcript(text))).toEqual({
      title: "Fix the checkout total",
    });
  });
});

describe("readTranscriptFacts failures", () => {
  it("throws for a missing file (gatherContext catches it)", () => {
    expect(() => readTranscriptFacts(join(tmpdir(), "no-such-dir-hn", "x.jsonl"))).toThrow(
      expect.objectContaining({ code: "ENOENT" }),
    );
  });

  it("returns nothing for an empty file", async () => {
    expect(readTranscriptFacts(await transcript(""))).toEqual({});
  });
});
