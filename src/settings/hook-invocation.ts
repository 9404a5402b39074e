import { findProgram, isHookNotifyCommand } from "./hook-command.js";

/** A piece of a command line: a word (unquoted value, raw span) or a shell operator. */
interface Token {
  kind: "word" | "operator" | "redirect";
  value: string;
  start: number;
  end: number;
}

/** Where hook-notify's invocation sits in a command, and what the user wrote around it. */
export interface Invocation {
  /** "simple": one command with an env prefix, arguments, redirects; "compound": one of several. */
  kind: "simple" | "compound";
  /** Offset where the invocation (launcher or program) starts, and where its last word ends. */
  start: number;
  end: number;
  /** The user's own arguments (--config x, a redirect), each with the whitespace before it. */
  extra: string[];
}

/** Our invocation inside a `sh -c '…'` string or a line we cannot split: ours, not to edit. */
export interface Untouchable {
  kind: "untouchable";
  reason: string;
}

const OPERATORS = ["&&", "||", ";;", ";", "|&", "|", "&", "(", ")"];
const REDIRECT = /^(?:\d*(?:>>|>&|<&|>\||<>|>|<)|&>>|&>)/;
const OUR_FLAGS = new Set(["--client", "--timeout"]);
// The default command (older installs spelled it out) and install --approve's: an entry that
// changes between them (Codex's PermissionRequest) must not keep the other one as an argument.
const OUR_COMMANDS = new Set(["run", "approve"]);

// Finds hook-notify in a hook's command: at the start or after an operator (cd x && hook-notify),
// behind VAR=x and launchers, or in a `sh -c` string. Undefined: the command does not run it.
export function findInvocation(command: string): Invocation | Untouchable | undefined {
  const tokens = tokenize(withGitRootAsWord(command));
  if (tokens === undefined) {
    return isHookNotifyCommand(command)
      ? { kind: "untouchable", reason: "a quote, substitution or here-document it cannot follow" }
      : undefined;
  }
  const commands = splitCommands(tokens);
  for (const simple of commands) {
    const words = simple.filter((t) => t.kind === "word").map((t) => t.value);
    const program = findProgram(words);
    if (program >= 0) return describe(command, simple, program, commands.length > 1);
    if (isNested(words)) return { kind: "untouchable", reason: "it runs inside a sh -c string" };
  }
  return undefined;
}

// `sh -c '… hook-notify …'`: the script is itself a command line that runs us.
function isNested(words: readonly string[]): boolean {
  const at = words.findIndex(
    (word, i) => word === "-c" && /^(?:.*\/)?(?:ba|z|da)?sh$/.test(words[i - 1] ?? ""),
  );
  const script = at >= 0 ? words[at + 1] : undefined;
  return script !== undefined && findInvocation(script) !== undefined;
}

// The invocation's span and the user's arguments: everything after the program except our flags.
function describe(
  command: string,
  simple: readonly Token[],
  program: number,
  isCompound: boolean,
): Invocation {
  const words = simple.filter((t) => t.kind === "word");
  const launcher = words.find((t) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(t.value)) ?? words[program];
  const programToken = words[program];
  if (launcher === undefined || programToken === undefined) throw new Error("no program word");
  const after = simple.slice(simple.indexOf(programToken) + 1);
  const extra: string[] = [];
  let end = programToken.end;
  for (let i = 0; i < after.length; i++) {
    const token = after[i];
    if (token === undefined) break;
    let last = token;
    if (i === 0 && OUR_COMMANDS.has(token.value)) {
      end = token.end; // the command install writes: swapped whole, never kept as the user's
      continue;
    }
    if (token.kind === "word" && OUR_FLAGS.has(token.value.split("=", 1)[0] ?? "")) {
      if (!token.value.includes("=")) last = after[++i] ?? token; // and its value
      end = last.end;
      continue;
    }
    if (token.kind === "redirect") last = after[++i] ?? token; // and its target
    extra.push(command.slice(end, last.end));
    end = last.end;
  }
  return { kind: isCompound ? "compound" : "simple", start: launcher.start, end, extra };
}

// Our invocation with the user's additions kept: what comes before it (VAR=1, cd x &&), their own
// arguments and redirects, what follows. `desired` is the command install writes; undefined when
// the command is not one we may edit (an `sh -c` string, a line we cannot split).
export function mergeCommand(existing: string, desired: string): string | undefined {
  const found = findInvocation(existing);
  if (found === undefined || found.kind === "untouchable") return undefined;
  const wanted = new Set(tokenize(desired)?.map((token) => token.value));
  const extra = found.extra.filter((raw) => !wanted.has(raw.trim()));
  return existing.slice(0, found.start) + desired + extra.join("") + existing.slice(found.end);
}

// Splits a command line into tokens the way sh quotes (no expansion); undefined for what we do
// not follow: an open quote, $( ), backquotes, a here-document or a line continuation.
function tokenize(command: string): Token[] | undefined {
  if (/\$\(|`|<<|\\\n/.test(command)) return undefined;
  const tokens: Token[] = [];
  let i = 0;
  while (i < command.length) {
    const char = command.charAt(i);
    if (char === " " || char === "\t") {
      i++;
      continue;
    }
    if (char === "\n") {
      tokens.push({ kind: "operator", value: ";", start: i, end: ++i });
      continue;
    }
    const redirect = REDIRECT.exec(command.slice(i, i + 8));
    if (redirect !== null) {
      tokens.push({
        kind: "redirect",
        value: redirect[0],
        start: i,
        end: (i += redirect[0].length),
      });
      continue;
    }
    const operator = OPERATORS.find((op) => command.startsWith(op, i));
    if (operator !== undefined) {
      tokens.push({ kind: "operator", value: operator, start: i, end: (i += operator.length) });
      continue;
    }
    const word = readWord(command, i);
    if (word === undefined) return undefined;
    tokens.push(word);
    i = word.end;
  }
  return tokens;
}

// One word from `start`: quotes joined, backslash escapes kept literal; undefined if a quote stays open.
function readWord(command: string, start: number): Token | undefined {
  let value = "";
  let i = start;
  while (i < command.length) {
    const char = command.charAt(i);
    if (" \t\n<>".includes(char) || OPERATORS.some((op) => command.startsWith(op, i))) break;
    if (char === "'" || char === '"') {
      const close = findClose(command, i + 1, char);
      if (close < 0) return undefined;
      value += unquote(command.slice(i + 1, close), char);
      i = close + 1;
    } else if (char === "\\" && i + 1 < command.length) {
      value += command.charAt(i + 1);
      i += 2;
    } else {
      value += char;
      i++;
    }
  }
  return { kind: "word", value, start, end: i };
}

function findClose(command: string, from: number, quote: string): number {
  for (let i = from; i < command.length; i++) {
    if (quote === '"' && command.charAt(i) === "\\") i++;
    else if (command.charAt(i) === quote) return i;
  }
  return -1;
}

function unquote(text: string, quote: string): string {
  return quote === '"' ? text.replace(/\\([\\"$`])/g, "$1") : text;
}

// Simple commands, split at operators.
function splitCommands(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [];
  let current: Token[] = [];
  for (const token of tokens) {
    if (token.kind !== "operator") {
      current.push(token);
      continue;
    }
    if (current.length > 0) out.push(current);
    current = [];
  }
  if (current.length > 0) out.push(current);
  return out;
}

// The project wrapper of Codex and Copilot CLI (no project variable there) is found through
// "$(git rev-parse --show-toplevel)": read as one plain word of the same length, so spans hold.
const GIT_ROOT = "$(git rev-parse --show-toplevel)";

function withGitRootAsWord(command: string): string {
  return command.replaceAll(GIT_ROOT, "$" + "G".repeat(GIT_ROOT.length - 1));
}
