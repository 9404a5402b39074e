// Standard Webhooks symmetric signatures (v1 = HMAC-SHA256), produced with node:crypto.
// node:crypto is fetched when a signature is made: loading it costs every hook run a few ms.

const SECRET_PREFIX = "whsec_";

// The key bytes of a `whsec_<base64>` secret (the prefix is optional).
export function decodeSecret(secret: string): Buffer {
  const base64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(base64, "base64");
}

// True for a secret the spec allows: base64 of 24 to 64 random bytes.
export function isValidSecret(secret: string): boolean {
  const base64 = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return false;
  const length = decodeSecret(secret).length;
  return length >= 24 && length <= 64;
}

// `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`: exactly the bytes that are sent.
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string) {
  const { createHmac } = process.getBuiltinModule("node:crypto");
  const mac = createHmac("sha256", decodeSecret(secret));
  mac.update(`${id}.${timestampSeconds}.${body}`);
  return `v1,${mac.digest("base64")}`;
}

// One id per logical notification: the same on every retry (receivers dedupe on it), no dots.
export function webhookId(notificationId: string): string {
  return `msg_${notificationId.replace(/[^A-Za-z0-9_-]/g, "_")}`;
}
