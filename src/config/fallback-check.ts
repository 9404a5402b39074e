// Fallbacks as the config names them: every target a valid sink, and no cycle (a → b → a would
// hand one notification around for ever). Pure: returns the sinks to keep and one line per problem.
import type { SinkEntry } from "../core/config.js";

// Drops the fallbacks that name no valid sink or close a cycle, saying why in one line each.
export function checkFallbacks(sinks: Record<string, SinkEntry>): string[] {
  const issues: string[] = [];
  for (const entry of Object.values(sinks)) {
    if (!entry.fallback) continue;
    const unknown = entry.fallback.filter(
      (name) => !Object.hasOwn(sinks, name) || name === entry.name,
    );
    issues.push(
      ...unknown.map((name) =>
        name === entry.name
          ? `sinks.${entry.name}.fallback: a sink cannot be its own fallback; remove "${name}"`
          : `sinks.${entry.name}.fallback: no valid sink named "${name}"`,
      ),
    );
    entry.fallback = entry.fallback.filter((name) => !unknown.includes(name));
  }
  for (const entry of Object.values(sinks)) {
    const cycle = cycleFrom(entry.name, sinks);
    if (!cycle) continue;
    issues.push(
      `sinks.${entry.name}.fallback: the fallbacks go round in a cycle (${cycle.join(" → ")}); remove one of them`,
    );
    for (const name of cycle) delete sinks[name]?.fallback;
  }
  for (const entry of Object.values(sinks)) if (entry.fallback?.length === 0) delete entry.fallback;
  return issues;
}

// The first path from `start` back to itself along fallbacks, or undefined.
function cycleFrom(start: string, sinks: Record<string, SinkEntry>): string[] | undefined {
  const walk = (name: string, path: string[]): string[] | undefined => {
    for (const next of sinks[name]?.fallback ?? []) {
      if (next === start) return [...path, next];
      if (path.includes(next)) continue;
      const found = walk(next, [...path, next]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(start, [start]);
}
