// Whether text read so far is the whole event: the hook's reader (link/fd-input.ts) and the
// pipeline's (pipeline/read-input.ts) both stop reading at one whole JSON value.

/** True when the text is one whole JSON value. */
export function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
