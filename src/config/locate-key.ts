// Where a key path stands in a config file's text, as "line:column" (1-based), for messages that
// name the place the way an editor jumps to it: "config.json:12:7: sinks.team.url: …". The text
// already parsed as JSON; only the offsets of keys (and list items) are collected. Pure.

/** "sinks.team.url", "escalate[1].to" → the offset of the deepest part of it found in `text`. */
export function locateKey(text: string, place: string): string | undefined {
  const offsets = keyOffsets(text);
  const parts = place.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  for (let n = parts.length; n > 0; n--) {
    const path = parts
      .slice(0, n)
      .reduce(
        (acc, part) => (part.startsWith("[") || acc === "" ? `${acc}${part}` : `${acc}.${part}`),
        "",
      );
    const offset = offsets.get(path);
    if (offset !== undefined) return lineColumn(text, offset);
  }
  return undefined;
}

// "invalid JSON at line 4 column 3 (Unexpected token ...)": what JSON.parse said of `text`. Also
// the hook's, which reads the config file itself when no stamp holds (link/config-mask.ts).
export function jsonErrorWhere(text: string, error: unknown): string {
  // V8 may quote a slice of the file in its message; that slice could hold a secret.
  const message = (error instanceof Error ? error.message : String(error)).replace(/,\s*".*$/s, "");
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return `invalid JSON (${message})`;
  const [line, column] = lineColumn(text, Number(position)).split(":");
  return `invalid JSON at line ${line ?? ""} column ${column ?? ""} (${message})`;
}

/** "line:column" of a character offset. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset).split("\n");
  return `${String(before.length)}:${String((before.at(-1)?.length ?? 0) + 1)}`;
}

// Every key's (and list item's) path → the offset where it is written.
function keyOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  let i = 0;
  const space = (): void => {
    while (i < text.length && " \t\r\n\uFEFF".includes(text.charAt(i))) i++;
  };
  const string = (): string => {
    const start = i;
    for (i++; i < text.length && text.charAt(i) !== '"'; i++) if (text.charAt(i) === "\\") i++;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    space();
    const c = text.charAt(i);
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      for (let n = 0; i < text.length && text.charAt(i) !== close; n++) {
        space();
        let inner = `${path}[${String(n)}]`;
        if (c === "{") {
          const at = i;
          const key = string();
          inner = path === "" ? key : `${path}.${key}`;
          offsets.set(inner, at);
          space();
          i++; // the colon
        } else offsets.set(inner, i);
        value(inner);
        space();
        if (text.charAt(i) === ",") i++;
        space();
      }
      i++;
    } else if (c === '"') string();
    else while (i < text.length && !",}] \t\r\n".includes(text.charAt(i))) i++;
  };
  try {
    value("");
  } catch {
    // Not JSON after all: no places to give.
  }
  return offsets;
}
