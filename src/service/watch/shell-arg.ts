// An id from the service as one word of a command a person copies from a notification
// ("hook-notify computers retry <id>"): as is when it is plain, else single-quoted (POSIX sh), so
// no id can add words, expand a variable or run anything.
const PLAIN = /^[A-Za-z0-9._:@%+=,/-]+$/;

// `comp-123` → comp-123; `a b$(x)` → 'a b$(x)'; `it's` → 'it'\''s'.
export function shellArg(text: string): string {
  if (PLAIN.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
