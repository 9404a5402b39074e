// Questions on the real terminal (install's "Apply these changes?", init's questions). readline
// draws the line with cursor codes of its own, so it writes to the terminal past the guard that
// makes every other byte inert (src/inert-output.ts); the question, which may carry a file name
// or other outside text, goes through `inert` before readline sees it.
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { inert, unguardedWrite } from "../inert-output.js";

/** One open prompt: ask, say a line between questions, close. */
export interface TerminalPrompt {
  ask: (question: string) => Promise<string>;
  say: (text: string) => void;
  close: () => void;
}

// Opens a prompt on process.stdin and process.stdout; the caller closes it.
export function openTerminalPrompt(): TerminalPrompt {
  const terminal = process.stdout;
  const { output, close } = terminalOutput();
  const readline = createInterface({ input: process.stdin, output, terminal: terminal.isTTY });
  return {
    ask: (question) => readline.question(inert(question)),
    say: (text) => {
      terminal.write(text);
    },
    close: () => {
      readline.close();
      close();
    },
  };
}

// The terminal as a stream a prompt may draw on with its own cursor codes (readline, init's
// prompt library), past the output guard; the caller closes it.
export function terminalOutput(): { output: Writable; close: () => void } {
  const terminal = process.stdout;
  const write = unguardedWrite(terminal);
  const output = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      write(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
      done();
    },
  });
  Object.defineProperties(output, {
    isTTY: { value: terminal.isTTY },
    columns: { get: () => terminal.columns },
    rows: { get: () => terminal.rows },
  });
  const resize = (): void => {
    output.emit("resize");
  };
  terminal.on("resize", resize);
  return {
    output,
    close: () => {
      terminal.off("resize", resize);
    },
  };
}
