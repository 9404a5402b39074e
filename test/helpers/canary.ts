import { randomBytes } from "node:crypto";

/** Every canary secret starts with this, so one grep finds any of them (or a piece of one). */
export const CANARY_PREFIX = "hnCANARY";

// A distinctive fake secret: the prefix, a label saying what it stands for, random hex per run.
export function makeCanary(label: string): string {
  return `${CANARY_PREFIX}${label}${randomBytes(8).toString("hex")}`;
}

/** One way a secret can show up in bytes: its form and the text to look for. */
export interface CanaryNeedle {
  secret: string;
  encoding: string;
  text: string;
}

const base64url = (text: string): string => Buffer.from(text).toString("base64url");
const base64 = (text: string): string => Buffer.from(text).toString("base64");

// The forms an accident produces: raw, percent-encoded, JSON-escaped, lower case, base64(url).
export function needlesFor(secret: string): CanaryNeedle[] {
  const forms: [string, string][] = [
    ["raw", secret],
    ["percent-encoded", encodeURIComponent(secret)],
    ["percent-encoded (form)", encodeURIComponent(secret).replace(/%20/g, "+")],
    ["JSON-escaped", JSON.stringify(secret).slice(1, -1)],
    ["lower case", secret.toLowerCase()],
    ["base64", base64(secret)],
    ["base64url", base64url(secret)],
  ];
  const seen = new Set<string>();
  return forms
    .filter(([, text]) => text.length >= 8 && !seen.has(text) && seen.add(text))
    .map(([encoding, text]) => ({ secret, encoding, text }));
}

// The prefix inside any longer base64 text: one needle per alignment (0, 1, 2 bytes before it).
export function prefixNeedles(): CanaryNeedle[] {
  const needles = needlesFor(CANARY_PREFIX).filter((n) => !n.encoding.startsWith("base64"));
  for (let shift = 0; shift < 3; shift++) {
    const encoded = base64("x".repeat(shift) + CANARY_PREFIX);
    // Keep only the characters made of prefix bits alone (6 bits per character, 8 per byte).
    const from = Math.ceil((shift * 4) / 3);
    const to = Math.floor(((shift + CANARY_PREFIX.length) * 4) / 3);
    needles.push({
      secret: CANARY_PREFIX,
      encoding: `base64 at offset ${shift}`,
      text: encoded.slice(from, to),
    });
  }
  return needles;
}

/** One place where a needle was found. */
export interface CanaryHit extends CanaryNeedle {
  where: string;
  count: number;
  context: string;
}

// Counts every needle in one blob; the context shows the surroundings of the first hit.
export function findCanaries(where: string, blob: string, needles: CanaryNeedle[]): CanaryHit[] {
  const hits: CanaryHit[] = [];
  for (const needle of needles) {
    const count = blob.split(needle.text).length - 1;
    if (count === 0) continue;
    const at = blob.indexOf(needle.text);
    const context = blob.slice(Math.max(at - 60, 0), at + needle.text.length + 60);
    hits.push({ ...needle, where, count, context });
  }
  return hits;
}
