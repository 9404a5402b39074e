// What `flush` says: one line per delivery and a summary for a person, or one JSON object at the
// end (--json).
import type { Attempt } from "../delivery/attempt.js";
import { codeSoFar } from "../exit.js";
import type { FlushArgs } from "./flush-drain.js";

/** `flush --json`: one object on stdout when flush ends (docs/commands.md shows it). */
interface FlushJson {
  ok: boolean;
  delivered: number;
  failed: number;
  /** Deliveries still waiting (retries on schedule, held groups). */
  pending: number;
  /** One per delivery attempted: its sink, id, what happened, and why when it did not arrive. */
  results: { sink: string; id: string; outcome: string; message?: string | undefined }[];
  /** Corrupt outbox files moved aside. */
  quarantined: number;
  /** A background worker: idle (nothing waited), handed over, or still busy (try again). */
  worker?: "idle" | "handed-over" | "busy" | undefined;
}

/** What flush says: lines for a person (`say`), or the object `finish` prints with --json. */
export interface FlushReport {
  json: FlushJson;
  say: (line: string) => void;
  finish: () => void;
}

const MARKS: Record<Attempt["outcome"], string> = {
  delivered: "✓",
  retry: "↻",
  failed: "✗",
  skipped: "-",
  cancelled: "-",
  held: "…",
  watched: "·",
  waiting: "↻",
};

// Prints one attempt and adds it to the JSON results; true when a given-up delivery was handed
// on to fallbacks (a next pass sends those).
export function reportAttempt(r: Attempt, { say, json }: FlushReport): boolean {
  const detail =
    r.outcome === "delivered"
      ? `delivered${r.fallbackOf ? ` (fallback for ${r.fallbackOf})` : ""}`
      : `${r.outcome === "retry" ? "will retry" : r.outcome}: ${r.message}`;
  const gaveUp = r.outcome === "failed" ? r : undefined;
  const had = gaveUp?.fallbackSkipped
    ? ` (fallback to ${gaveUp.fallbackSkipped.join(", ")} skipped: already has it)`
    : "";
  const handed = `${gaveUp?.fallback ? ` → ${gaveUp.fallback.join(", ")}` : ""}${had}`;
  say(`${MARKS[r.outcome]} ${r.sink} ${r.id} ${detail}${handed}`);
  const message = r.outcome === "delivered" ? undefined : `${r.message}${handed}`;
  json.results.push({ sink: r.sink, id: r.id, outcome: r.outcome, message });
  return gaveUp?.fallback !== undefined;
}

// --json: the human lines go nowhere and one object is printed at the end.
export function startReport(argv: Pick<FlushArgs, "json">): FlushReport {
  return {
    json: { ok: true, delivered: 0, failed: 0, pending: 0, results: [], quarantined: 0 },
    say: (line) => {
      if (!argv.json) console.log(line);
    },
    finish() {
      if (argv.json) console.log(JSON.stringify({ ...this.json, ok: codeSoFar() !== 1 }));
    },
  };
}
