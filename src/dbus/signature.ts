// D-Bus type signatures (the specification's "Type System"): the values this client reads and
// writes, where one single complete type ends, and how each type is aligned on the wire.

/** y n q i u d: number; x t: bigint; b: boolean; s o g: string; arrays, structs and dict entries
 *  (as [key, value]): arrays; v: a Variant. */
export type DbusValue = number | bigint | boolean | string | DbusValue[] | Variant;

export interface Variant {
  signature: string;
  value: DbusValue;
}

// prettier-ignore
const ALIGNMENT: Record<string, number> = {
  y: 1, b: 4, n: 2, q: 2, i: 4, u: 4, x: 8, t: 8, d: 8, h: 4,
  s: 4, o: 4, g: 1, v: 1, a: 4, "(": 8, "{": 8,
};

/** The alignment (in bytes) of the type that starts with `code`. */
export function alignmentOf(code: string): number {
  const alignment = ALIGNMENT[code];
  if (alignment === undefined)
    throw new SyntaxError(`D-Bus signature: unknown type code "${code}"`);
  return alignment;
}

/** The index just past the single complete type that starts at `start` of `signature`. */
export function typeEnd(signature: string, start: number): number {
  const code = signature[start];
  if (code === undefined) throw new SyntaxError(`D-Bus signature "${signature}" ends early`);
  if (code === "a") return typeEnd(signature, start + 1);
  if (code === "(" || code === "{") {
    const close = code === "(" ? ")" : "}";
    let at = start + 1;
    while (signature[at] !== close) at = typeEnd(signature, at);
    if (at === start + 1)
      throw new SyntaxError(`D-Bus signature "${signature}": empty ${code}${close}`);
    return at + 1;
  }
  alignmentOf(code);
  return start + 1;
}

/** "sa{sv}i" → ["s", "a{sv}", "i"]. */
export function completeTypes(signature: string): string[] {
  const types: string[] = [];
  for (let at = 0; at < signature.length;) {
    const end = typeEnd(signature, at);
    types.push(signature.slice(at, end));
    at = end;
  }
  return types;
}

/** The single complete types inside a struct "(…)" or dict entry "{…}" type. */
export function memberTypes(container: string): string[] {
  return completeTypes(container.slice(1, -1));
}

/** `value` when it is a string (a D-Bus s, o or g), else "". */
export function textOf(value: DbusValue | undefined): string {
  return typeof value === "string" ? value : "";
}
