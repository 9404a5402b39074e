// Everything hook-notify prints can carry outside text: event fields, a project file's keys, a
// server's reply, a config file's bytes. At the one edge where text leaves for a terminal (the
// stdout and stderr streams, and the one direct write to fd 1), every control character, escape
// sequence, separator, bidi control and invisible character becomes visible, inert `\u001b`-style
// text (shown-text.ts, the "terminal" form). Our own colours pass as marks that only this process
// can write (a random nonce), turned into escapes after that.
import { randomBytes } from "node:crypto";
import { Buffer } from "node:buffer";
import { inertText } from "./shown-text.js";

const MARK_START = "\uE000";

/** Shared by the bundles of one process (dist/cli.cjs and dist/commands.cjs each carry this). */
interface Shared {
  nonce: string;
}
const KEY = Symbol.for("hook-notify.inert-output");
const registry = globalThis as unknown as Record<symbol, Shared | undefined>;

function shared(): Shared {
  return (registry[KEY] ??= { nonce: randomBytes(8).toString("hex") });
}

// "\u001b" for ESC: readable, inert on every terminal, and the same data inside a JSON string.
export function inert(text: string): string {
  const safe = inertText(text, "terminal");
  const state = registry[KEY];
  return state ? safe.replaceAll(`${MARK_START}${state.nonce}:`, "\u001b[") : safe;
}

// The colour escape `ESC[<code>m`, written as a mark that `inert` turns into the escape.
export function colourMark(code: number): string {
  return `${MARK_START}${shared().nonce}:${String(code)}m`;
}

/** Matches a colour mark, for measuring the width a person sees. */
export const COLOUR_MARK = /\uE000[0-9a-f]{16}:[0-9;]*m/g;

// Routes every write to process.stdout and process.stderr through `inert`. The streams are built
// lazily by Node (a few ms the hook path may not need), so the guard wraps each one on first use.
export function guardOutput(): void {
  for (const name of ["stdout", "stderr"] as const) {
    const own = Object.getOwnPropertyDescriptor(process, name);
    const get = own?.get?.bind(process);
    if (!own || !get) continue;
    let guarded: NodeJS.WriteStream | undefined;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: own.enumerable ?? true,
      get: () => (guarded ??= guardStream(get() as NodeJS.WriteStream)),
    });
  }
}

// readline's own cursor codes (ESC[1G, ESC[0J, …) must reach the terminal as codes, or a prompt
// shows them as text: a prompt writes through this, and puts its question through `inert` first.
export function unguardedWrite(stream: NodeJS.WriteStream): (text: string) => boolean {
  return rawWrites().get(stream) ?? ((text) => stream.write(text));
}

// Each guarded stream's own write, shared by the bundles of one process like the nonce, but
// apart from it: the hook's bundle must not load node:crypto (and its streams) to guard output.
function rawWrites(): WeakMap<object, (text: string) => boolean> {
  const key = Symbol.for("hook-notify.raw-writes");
  const all = globalThis as unknown as Record<
    symbol,
    WeakMap<object, (text: string) => boolean> | undefined
  >;
  return (all[key] ??= new WeakMap());
}

function guardStream(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  rawWrites().set(stream, (text) => write(text));
  stream.write = (chunk: unknown, ...rest: unknown[]) =>
    write(
      typeof chunk === "string"
        ? inert(chunk)
        : chunk instanceof Uint8Array
          ? Buffer.from(inert(Buffer.from(chunk).toString("utf8")), "utf8")
          : chunk,
      ...rest,
    );
  return stream;
}
