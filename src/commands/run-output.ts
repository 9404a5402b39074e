// The hook's own writes: one write to fd 1 or 2, made inert, without building console or the
// process's streams (run.ts, run-report.ts, dry-run-plan.ts).
import { writeSync } from "node:fs";
import { inert } from "../inert-output.js";

// One write to fd 1 (made inert like every other output): building console and process.stdout
// costs a few ms that a person piping --dry-run into jq need not wait for. A full non-blocking pipe
// falls back to the stream.
export function printLines(lines: readonly string[], fd: 1 | 2 = 1): void {
  if (lines.length === 0) return;
  const text = `${lines.join("\n")}\n`;
  try {
    writeSync(fd, inert(text));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EAGAIN") return;
    if (fd === 1) process.stdout.write(text);
    else process.stderr.write(text);
  }
}

// One line to stderr, as printLines writes stdout: console.error would build process.stderr and
// the ~20 stream modules behind it (~15 M instructions) for a line or two.
export function say(line: string): void {
  printLines([line], 2);
}
