// A value built on the first call and kept: zod schemas cost a hook run time to build, and a run
// with no config file and a well-formed event needs none (nor zod itself, see src/zod.ts).
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
