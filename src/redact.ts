// Masks secrets before anything is written or printed: URLs keep only their origin, and every
// configured secret value, in every encoding an accident produces, becomes "***".
import { Buffer } from "node:buffer";
import { setOwn } from "./own.js";

export const MASK = "***";
/** Shorter pieces would mask ordinary words; a secret is never this short. */
const MIN_SECRET_LENGTH = 4;

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

// The pieces of a secret value worth masking: the value, for a URL its path, query, user info
// and tokens, and each piece percent-encoded, JSON-escaped and in base64 (a server or an agent
// may echo any of these forms).
export function secretPartsOf(value: string): string[] {
  const parts = [value];
  try {
    const url = new URL(value);
    // A short path (a webhook at /hook) is a word, not a secret: masked, it would mask every
    // /tmp/hook-notify… in an event. Pieces shorter than 8 characters are masked only as part
    // of the whole value, as path segments and query values are.
    const tail = url.pathname + url.search;
    if (tail.length >= 8) parts.push(tail);
    for (const info of [url.username, url.password]) if (info) parts.push(info, safeDecode(info));
    if (url.username && url.password) {
      parts.push(`${safeDecode(url.username)}:${safeDecode(url.password)}`);
    }
    for (const segment of url.pathname.split("/")) if (segment.length >= 8) parts.push(segment);
    // (searchParams builds a URLSearchParams, ~1 M instructions on its first use: only for a query)
    if (url.search)
      for (const item of url.searchParams.values()) if (item.length >= 8) parts.push(item);
    // Apprise forms (slack://TOKEN_A/…, pover://USER@TOKEN) keep a token where a host goes; a
    // token has no dot, a host name or address has.
    const { hostname } = url;
    const isToken = !hostname.includes(".") && hostname.length >= 8;
    if (!/^https?:$/.test(url.protocol) && isToken) parts.push(hostname);
  } catch {
    parts.push(...loosePartsOf(value));
  }
  return [...new Set(parts.flatMap(encodingsOf))];
}

// A URL-like value WHATWG cannot parse (tgram://123:ABC/456: a token where a port goes): every
// piece between / @ ? & = and :, of 8 characters or more, and the pieces joined by ":".
function loosePartsOf(value: string): string[] {
  const rest = /^[a-z][a-z0-9+.-]*:\/\/(.+)$/i.exec(value)?.[1];
  if (rest === undefined) return [];
  const pieces = rest.split(/[/@?&#=]/);
  return [...pieces, ...pieces.flatMap((piece) => piece.split(":"))].filter((p) => p.length >= 8);
}

function encodingsOf(part: string): string[] {
  return [
    part,
    encodeURIComponent(part),
    encodeURIComponent(part).replace(/%20/g, "+"),
    JSON.stringify(part).slice(1, -1),
    Buffer.from(part).toString("base64"),
    Buffer.from(part).toString("base64url"),
  ];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const compiled = new WeakMap<readonly string[], RegExp | undefined>();

// One case-insensitive pattern for a list of secrets, longest first (compiled once per list).
function patternOf(secrets: readonly string[]): RegExp | undefined {
  if (compiled.has(secrets)) return compiled.get(secrets);
  const ordered = [...new Set(secrets)]
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = ordered.length > 0 ? new RegExp(ordered.join("|"), "gi") : undefined;
  compiled.set(secrets, pattern);
  return pattern;
}

// Replaces every occurrence of every known secret in text (any letter case).
export function scrub(text: string, secrets: readonly string[]): string {
  const pattern = patternOf(secrets);
  return pattern ? text.replace(pattern, MASK) : text;
}

// Deep copy of a JSON-like value with every string (keys too) scrubbed. Iterative, so event
// input nested thousands of levels deep cannot overflow the stack.
export function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (!patternOf(secrets)) return value;
  const root: { value: unknown } = { value };
  const stack: { from: unknown; into: Record<string, unknown>; key: string }[] = [
    { from: value, into: root, key: "value" },
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { from, into, key } = item;
    if (typeof from === "string") {
      setOwn(into, key, scrub(from, secrets));
    } else if (Array.isArray(from)) {
      const copy: unknown[] = [];
      setOwn(into, key, copy);
      from.forEach((child: unknown, i) => {
        stack.push({
          from: child,
          into: copy as unknown as Record<string, unknown>,
          key: String(i),
        });
      });
    } else if (from && typeof from === "object") {
      const copy: Record<string, unknown> = {};
      setOwn(into, key, copy);
      for (const [k, child] of Object.entries(from)) {
        const masked = scrub(k, secrets);
        setOwn(copy, masked, undefined); // keeps the key order; filled when popped
        stack.push({ from: child, into: copy, key: masked });
      }
    } else {
      setOwn(into, key, from);
    }
  }
  return root.value;
}
