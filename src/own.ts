// Keys from outside (a config, a hook event, the environment, a service's answer, a file) index
// plain objects here. `table[key]` also finds Object.prototype's members ("toString",
// "constructor", "__proto__": a function, an object), and `object["__proto__"] = value` sets the
// object's prototype instead of adding the key. These two read and write a key as data only.

/** `table[key]` when `table` has it itself; undefined for a member of Object.prototype. */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** `object[key] = value`, a key named "__proto__" included (as JSON.parse makes it: a key). */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else object[key] = value;
}
