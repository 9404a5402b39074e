// FNV-1a, 64 bits, as hex: a stable name for a piece of text (outbox keys, seen markers). Not a
// secret, so no node:crypto (loading it would cost every hook run a few ms).
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, "utf8")) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}
