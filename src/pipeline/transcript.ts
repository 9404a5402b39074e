// A transcript file read at its edges (readTranscriptFacts); each line read by transcript-lines.ts.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { assistantTextOf, parseLine, titleOf, userPromptTime } from "./transcript-lines.js";

/** What a transcript tells about its session, read from its first and last 64 KiB only. */
export interface TranscriptFacts {
  title?: string;
  lastAssistantMessage?: string;
  /** When the person last wrote (ms since the epoch): the start of the turn a Stop ends. */
  lastUserAt?: number;
}

const WINDOW = 64 * 1024;

// Reads the session title and the last assistant text of a Droid or Claude Code transcript.
export function readTranscriptFacts(path: string): TranscriptFacts {
  const lines = readEdgeLines(path);
  const facts: TranscriptFacts = {};
  let titleRank = 0;
  for (const line of lines) {
    const record = parseLine(line);
    if (!record) continue;
    const title = titleOf(record);
    if (title && title.rank >= titleRank) {
      facts.title = title.text;
      titleRank = title.rank;
    }
    const text = assistantTextOf(record);
    if (text) facts.lastAssistantMessage = text;
    const userAt = userPromptTime(record);
    if (userAt !== undefined) facts.lastUserAt = userAt;
  }
  return facts;
}

// Two bounded synchronous reads (head and tail) of a local file: cheaper than node:fs/promises.
function readEdgeLines(path: string): string[] {
  // O_NONBLOCK: a FIFO or a device named as the transcript must not block this synchronous open
  // (the run's deadline timer could never fire). Only regular files are read.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return [];
    const { size } = stat;
    const head = Buffer.alloc(Math.min(size, WINDOW));
    readSync(fd, head, 0, head.length, 0);
    if (size <= WINDOW) return head.toString("utf8").split("\n");
    const tail = Buffer.alloc(Math.min(size - WINDOW, WINDOW));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    // The first and last line of each window may be cut; they simply fail to parse.
    return [...head.toString("utf8").split("\n"), ...tail.toString("utf8").split("\n")];
  } finally {
    closeSync(fd);
  }
}
