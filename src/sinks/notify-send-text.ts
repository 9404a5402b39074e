// What notify-send is given and what it tells back.

// notify-send runs g_strcompress() on the body (not the summary): "\\" becomes "\", "\n" a
// newline, "\101" an "A". Doubling every backslash makes it hand the daemon the text we had.
export function escapeBody(body: string): string {
  return body.replaceAll("\\", "\\\\");
}

const ID = /^\s*(\d{1,10})\s*$/m;

// The daemon's id for the banner in what `notify-send --print-id` wrote; undefined when it wrote
// none. 0 is no id: a daemon's ids start at 1, and libnotify 0.8's notify-send prints 0 (then
// exits 1) when the banner was not shown at all (no session bus, no daemon).
export function bannerId(stdout: string): string | undefined {
  const id = ID.exec(stdout)?.[1];
  return id === undefined || /^0+$/.test(id) ? undefined : id;
}
