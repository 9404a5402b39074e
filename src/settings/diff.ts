/** One line of a diff: kept (" "), removed ("-") or added ("+"). */
interface DiffLine {
  mark: " " | "-" | "+";
  text: string;
}

const CONTEXT = 2;

// A unified-style line diff a person can read in a terminal; empty when nothing changed.
export function diffLines(before: string, after: string, label: string): string {
  if (before === after) return "";
  const lines = compare(splitLines(before), splitLines(after));
  const shown = new Set<number>();
  lines.forEach((line, index) => {
    if (line.mark === " ") return;
    for (let near = index - CONTEXT; near <= index + CONTEXT; near++) shown.add(near);
  });
  const out = [`--- ${label}`, `+++ ${label}`];
  lines.forEach((line, index) => {
    if (!shown.has(index)) return;
    if (index > 0 && !shown.has(index - 1)) out.push("@@");
    out.push(`${line.mark} ${maskValues(line.text)}`);
  });
  return out.join("\n");
}

const JSON_STRING = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

// The diff is printed (and pasted into bug reports), and the user's file may hold secrets, e.g.
// Claude Code's "env": keys stay, string values are shown only for hook entries' own fields.
export function maskValues(text: string): string {
  let key: string | undefined;
  return text.replace(JSON_STRING, (token, colon: string | undefined) => {
    if (colon !== undefined) {
      key = token.slice(0, token.length - colon.length);
      return token;
    }
    const shown = isShownValue(key, token);
    key = undefined;
    return shown ? token : '"…"';
  });
}

function isShownValue(key: string | undefined, value: string): boolean {
  if (key === '"type"' || key === '"matcher"') return true;
  return key === '"command"' && value.includes("hook-notify");
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  return text.replace(/\r?\n$/, "").split(/\r?\n/);
}

// Longest common subsequence, fine for settings files of a few hundred lines.
function compare(a: string[], b: string[]): DiffLine[] {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * cols + j] =
        a[i] === b[j]
          ? (table[(i + 1) * cols + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * cols + j] ?? 0, table[i * cols + j + 1] ?? 0);
    }
  }
  const down = (i: number, j: number): number => table[(i + 1) * cols + j] ?? 0;
  const right = (i: number, j: number): number => table[i * cols + j + 1] ?? 0;
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ mark: " ", text: a[i++] ?? "" });
      j++;
    } else if (i < a.length && (j === b.length || down(i, j) >= right(i, j))) {
      out.push({ mark: "-", text: a[i++] ?? "" });
    } else {
      out.push({ mark: "+", text: b[j++] ?? "" });
    }
  }
  return out;
}
