// Masks secrets before anything is written or printed: URLs keep only their origin.

const MASK = "***";

// "https://hooks.slack.com/services/T0/B0/xyz?x=1" → "https://hooks.slack.com/…"
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const rest = parsed.pathname !== "/" || parsed.search || parsed.username ? "/…" : "";
    return `${parsed.protocol}//${parsed.host}${rest}`;
  } catch {
    return MASK;
  }
}

// The pieces of a secret value worth masking: the value, and for a URL its path, query and tokens.
export function secretPartsOf(value: string): string[] {
  const parts = [value];
  try {
    const url = new URL(value);
    const tail = url.pathname + url.search;
    if (tail.length > 1) parts.push(tail);
    if (url.password) parts.push(url.password, decodeURIComponent(url.password));
    for (const segment of url.pathname.split("/")) if (segment.length >= 8) parts.push(segment);
    for (const item of url.searchParams.values()) if (item.length >= 8) parts.push(item);
  } catch {
    // not a URL: the value alone
  }
  return parts;
}

// Replaces every occurrence of every known secret in text, longest first.
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  const ordered = [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  for (const secret of ordered) out = out.split(secret).join(MASK);
  return out;
}

// Deep copy of a JSON-like value with every string scrubbed.
export function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return scrub(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, scrubValue(item, secrets)]),
    );
  }
  return value;
}
