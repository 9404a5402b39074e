// A random RFC 4122 version-4 id without loading node:crypto (~5 ms on the hook path).
// It names one notification for de-duplication; it is not a secret.
export function newNotificationId(random: () => number = Math.random): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = "4";
  hex[16] = (Math.floor(random() * 4) + 8).toString(16);
  const s = hex.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** True for text of the form newNotificationId gives (an id that names outbox files). */
export function isNotificationId(value: unknown): value is string {
  return typeof value === "string" && /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/.test(value);
}
