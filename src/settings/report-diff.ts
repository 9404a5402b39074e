/** One line of a diff: kept (" "), removed ("-") or added ("+"). */
interface DiffLine {
  mark: " " | "-" | "+";
  text: string;
}

const CONTEXT = 2;

// A unified-style line diff a person can read in a terminal; empty when nothing changed.
export function diffLines(before: string, after: string, label: string): string {
  if (before === after) return "";
  const lines = compareTrimmed(splitLines(before), splitLines(after));
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

/** Above this many table cells the middle is shown as all removed, then all added. */
const MAX_CELLS = 4_000_000;

// Install changes a few lines of a file that may hold thousands: the unchanged head and tail are
// matched directly, so the quadratic table only covers the part that differs.
function compareTrimmed(a: string[], b: string[]): DiffLine[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const same = (lines: string[]): DiffLine[] => lines.map((text) => ({ mark: " ", text }));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const middle =
    (midA.length + 1) * (midB.length + 1) > MAX_CELLS
      ? [
          ...midA.map((text): DiffLine => ({ mark: "-", text })),
          ...midB.map((text): DiffLine => ({ mark: "+", text })),
        ]
      : compare(midA, midB);
  return [...same(a.slice(0, head)), ...middle, ...same(a.slice(a.length - tail))];
}

// Longest common subsequence, fine for the few hundred lines that differ.
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
