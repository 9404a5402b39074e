// FNV-1a, 64 bits, as hex: a stable name for a piece of text (outbox keys, seen markers). Not a
// secret, so no node:crypto (loading it would cost every hook run a few ms).
// Four 16-bit limbs instead of BigInt: the same value ~10x faster, on the hook path of every run.
export function fnv1a64(text: string): string {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2; // 0xcbf29ce484222325, lowest limb first
  for (const byte of Buffer.from(text, "utf8")) {
    h0 ^= byte;
    // × 0x100000001b3 = × 0x1b3 plus << 40 (two limbs and 8 bits up), carried limb by limb.
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
    h3 = (h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16)) & 0xffff;
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
  }
  return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, "0")).join("");
}
