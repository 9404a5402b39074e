// Hook mode's stdout guard: process.stdout is swapped for a stream that drops every byte.
import { createRequire } from "node:module";
import type * as NodeStream from "node:stream";

// In hook mode stdout belongs to the client (JSON there can keep the agent from stopping): any
// library that writes to it writes into the void. Defined lazily, so nothing is built unless used.
export function muteStdout(): void {
  let sink: NodeJS.WriteStream | undefined;
  Object.defineProperty(process, "stdout", {
    configurable: true,
    get: () => (sink ??= createVoidStream()),
  });
}

function createVoidStream(): NodeJS.WriteStream {
  const require = createRequire(import.meta.url);
  const { Writable } = require("node:stream") as typeof NodeStream;
  const stream = new Writable({
    write: (_chunk, _encoding, done) => {
      done();
    },
  });
  return Object.assign(stream, { isTTY: false, columns: 80 }) as unknown as NodeJS.WriteStream;
}
