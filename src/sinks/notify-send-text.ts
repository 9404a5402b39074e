// notify-send runs g_strcompress() on the body (not the summary): "\\" becomes "\", "\n" a
// newline, "\101" an "A". Doubling every backslash makes it hand the daemon the text we had.
export function escapeBody(body: string): string {
  return body.replaceAll("\\", "\\\\");
}
