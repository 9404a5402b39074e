// A service id as one path segment of a request, or why it cannot be one.
import { HookNotifyError } from "../errors.js";

// One id as one path segment: refused when it is empty, a dot segment (`.`, `..`: URL resolution
// would send the request to another endpoint), starts with `-` (it would read as an option in a
// suggested command) or holds a `/`; otherwise percent-encoded.
export function idSegment(id: string, what = "id"): string {
  const problem = idProblem(id);
  if (problem)
    throw new HookNotifyError("USAGE", `${what} ${JSON.stringify(id)}: ${problem}.`, {
      retryable: false,
    });
  return encodeURIComponent(id);
}

// Why `id` cannot be a service id, or undefined when it can.
export function idProblem(id: string): string | undefined {
  if (id.trim() === "") return "an id is needed";
  if (id === "." || id === "..") return "not an id (a dot segment would reach another endpoint)";
  if (id.startsWith("-")) return "an id does not start with -";
  if (/[/\\]/.test(id) || /\p{Cc}/u.test(id)) return "an id has no /, \\ or control characters";
  return undefined;
}
