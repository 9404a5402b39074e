// A readable diff of two enterprise-control snapshots: one line per changed key path, with
// credential-bearing values masked ("customModels[0].apiKey: changed"). Pure.

/** One changed key path, already worded. */
export interface SettingChange {
  path: string;
  kind: "added" | "removed" | "changed";
  line: string;
}

const MASK = "***";
const MAX_VALUE = 60;
// Keys whose values are credentials (customModels[].apiKey, cloudCredentialExport, …), and the
// free-form objects that can carry them (extraHeaders: Authorization).
const SECRET_KEY =
  /(api_?key|secret|password|passwd|credential|auth|bearer|^token$|accesstoken|refreshtoken|privatekey)/i;
const SECRET_CONTAINER = /^(extraHeaders|extraArgs)$/;

// Every difference between `before` and `after`, in key order; arrays of plain values are
// compared as sets ("commandDenylist: + curl | sh").
export function diffSettings(before: unknown, after: unknown): SettingChange[] {
  const changes: SettingChange[] = [];
  walk(before, after, "", false, changes);
  return changes;
}

function walk(a: unknown, b: unknown, path: string, secret: boolean, out: SettingChange[]): void {
  // A whole object or list added or removed: one line per value inside, each masked on its own.
  if (a === undefined && (isObject(b) || Array.isArray(b))) a = Array.isArray(b) ? [] : {};
  if (b === undefined && (isObject(a) || Array.isArray(a))) b = Array.isArray(a) ? [] : {};
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      const hidden = secret || SECRET_KEY.test(key) || SECRET_CONTAINER.test(key);
      walk(a[key], b[key], path ? `${path}.${key}` : key, hidden, out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.every(isPlain) && b.every(isPlain)) {
      setDiff(a, b, path, secret, out);
      return;
    }
    const length = Math.max(a.length, b.length);
    for (let i = 0; i < length; i++) walk(a[i], b[i], `${path}[${i}]`, secret, out);
    return;
  }
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a === undefined) {
    out.push({ path, kind: "added", line: `${path}: added ${show(b, secret)}` });
  } else if (b === undefined) {
    out.push({ path, kind: "removed", line: `${path}: removed` });
  } else {
    const line = secret
      ? `${path}: changed (${MASK})`
      : `${path}: ${show(a, false)} → ${show(b, false)}`;
    out.push({ path, kind: "changed", line });
  }
}

function setDiff(a: unknown[], b: unknown[], path: string, secret: boolean, out: SettingChange[]) {
  const before = new Set(a.map((v) => JSON.stringify(v)));
  const after = new Set(b.map((v) => JSON.stringify(v)));
  const added = [...after].filter((v) => !before.has(v));
  const removed = [...before].filter((v) => !after.has(v));
  if (added.length === 0 && removed.length === 0) return;
  const item = (v: string) => (secret ? MASK : clip(String(JSON.parse(v) as unknown)));
  const parts = [...added.map((v) => `+ ${item(v)}`), ...removed.map((v) => `− ${item(v)}`)];
  out.push({ path, kind: "changed", line: `${path}: ${parts.join(", ")}` });
}

function show(value: unknown, secret: boolean): string {
  if (secret) return MASK;
  if (isObject(value) || Array.isArray(value)) return clip(JSON.stringify(maskDeep(value)));
  return clip(typeof value === "string" ? JSON.stringify(value) : String(value));
}

// A copy of an added object or array with its credential-bearing values masked.
export function maskDeep(value: unknown, secret = false): unknown {
  if (secret && value !== null && typeof value !== "object") return MASK;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, secret));
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        maskDeep(v, secret || SECRET_KEY.test(k) || SECRET_CONTAINER.test(k)),
      ]),
    );
  }
  return value;
}

function clip(text: string): string {
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function isPlain(value: unknown): boolean {
  return value === null || typeof value !== "object";
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
