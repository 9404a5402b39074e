// `hook-notify flush`: delivers what waits in the outbox now, in the foreground, with a summary.
import type { CommandModule } from "yargs";
import type { Enrich } from "../delivery/deliver-entry.js";
import { codeSoFar, exitWhenDone } from "../exit.js";

interface FlushArgs {
  "retry-failed": boolean;
  "max-age-hours"?: number | undefined;
  json: boolean;
}

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

const WAIT_FOR_WORKER_MS = 30_000;

// Deliveries and whole events that wait in the outbox (pending/, held/, digest/, events/).
async function waiting(paths: {
  pending: string;
  held: string;
  digest: string;
  events: string;
}): Promise<number> {
  const { readdir } = await import("node:fs/promises");
  const count = async (dir: string): Promise<number> =>
    (await readdir(dir).catch(() => [])).filter((name) => !name.startsWith(".")).length;
  const counts = await Promise.all(
    [paths.pending, paths.held, paths.digest, paths.events].map(count),
  );
  return counts.reduce((sum, n) => sum + n, 0);
}

// Prints one line per delivery and a summary; exit code 1 when something failed or is left.
export const flushCommand: CommandModule<object, FlushArgs> = {
  command: "flush",
  describe: "Deliver the notifications waiting in the outbox now",
  builder: (yargs) =>
    yargs
      .option("retry-failed", {
        type: "boolean",
        default: false,
        describe: "Also retry deliveries that were given up (failed/)",
      })
      .option("max-age-hours", {
        type: "number",
        describe: "Give up on deliveries older than this (default 24)",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe: "Print the result as one JSON object when flush ends",
      })
      .example("$0 flush", "send what waits now, after a time offline")
      .example("$0 flush --retry-failed", "also try again what was given up")
      .example("$0 flush --json", "the result as one JSON object, for scripts"),
  handler: async (argv) => {
    const [
      { createDeps },
      { drain },
      { whileLocked, lockSocket },
      { outboxPaths },
      { processOwner, startWorker },
      { ensureDirs },
      { requeueFailed },
      { releaseHeld },
      { releaseDigests },
      { sendWake },
      { runEvents },
      { recoverEvents },
    ] = await Promise.all([
      import("../deps.js"),
      import("../worker/drain.js"),
      import("../link/lock.js"),
      import("../outbox/paths.js"),
      import("../link/spawn.js"),
      import("../outbox/store.js"),
      import("../outbox/read-entries.js"),
      import("../delivery/coalesce-groups.js"),
      import("../delivery/digest.js"),
      import("../link/wake.js"),
      import("../worker/run-events.js"),
      import("../link/inbox.js"),
    ]);
    const deps = createDeps();
    const paths = outboxPaths(deps);
    // --json: the human lines go nowhere and one object is printed at the end.
    const json: FlushJson = {
      ok: true,
      delivered: 0,
      failed: 0,
      pending: 0,
      results: [],
      quarantined: 0,
    };
    const say = (line: string): void => {
      if (!argv.json) console.log(line);
    };
    const finish = (): void => {
      if (argv.json) console.log(JSON.stringify({ ...json, ok: codeSoFar() !== 1 }));
    };
    await ensureDirs(paths);
    const owner = processOwner(deps);
    // SubagentStop events held for coalescing go out now, merged, instead of at their window's
    // end; a running worker (which may be waiting for that window) then delivers them.
    const held = await releaseHeld(deps, { force: true, abandoned: false });
    if (held.released > 0)
      say(`Merged ${String(held.released)} group(s) of held SubagentStop events.`);
    const drainNow = async (): Promise<number> => {
      // Hook events no worker ran (none was alive, or none could start): run here, with the lock,
      // as the worker would (a dead taker's go back in line first).
      recoverEvents(paths, owner.isAlive);
      const ran = await runEvents(deps, paths, () => undefined, { worker: false });
      if (ran > 0) say(`Ran ${String(ran)} hook event(s) that waited for a worker.`);
      if (argv["retry-failed"])
        say(`Retrying ${await requeueFailed(paths, deps.now())} failed deliveries.`);
      await releaseHeld(deps, { force: true }); // with the lock: also what a dead worker claimed
      // Digests held while you were away go now: whoever runs flush is there.
      const digests = await releaseDigests(deps, { force: true });
      if (digests.released > 0) say(`Composed ${String(digests.released)} digest(s).`);
      const hours = argv["max-age-hours"];
      const handedOn = { any: false };
      // A Droid notification gets its session's title first (the service code loads only then).
      const enrich: Enrich = async (...args) =>
        (await import("../worker/enrich-entry.js")).enrichForDelivery(...args);
      const pass = () =>
        drain(deps, {
          force: true,
          enrich,
          ...(hours && hours > 0 ? { maxAgeMs: hours * 3_600_000 } : {}),
          onResult: (r) => {
            const mark = {
              delivered: "✓",
              retry: "↻",
              failed: "✗",
              skipped: "-",
              cancelled: "-",
              held: "…",
              watched: "·",
              waiting: "↻",
            }[r.outcome];
            const detail =
              r.outcome === "delivered"
                ? `delivered${r.fallbackOf ? ` (fallback for ${r.fallbackOf})` : ""}`
                : `${r.outcome === "retry" ? "will retry" : r.outcome}: ${r.message}`;
            const gaveUp = r.outcome === "failed" ? r : undefined;
            const had = gaveUp?.fallbackSkipped
              ? ` (fallback to ${gaveUp.fallbackSkipped.join(", ")} skipped: already has it)`
              : "";
            const handed = `${gaveUp?.fallback ? ` → ${gaveUp.fallback.join(", ")}` : ""}${had}`;
            if (gaveUp?.fallback) handedOn.any = true;
            say(`${mark} ${r.sink} ${r.id} ${detail}${handed}`);
            const message = r.outcome === "delivered" ? undefined : `${r.message}${handed}`;
            json.results.push({ sink: r.sink, id: r.id, outcome: r.outcome, message });
          },
        });
      let summary = await pass();
      // What was given up on in this pass went to its fallbacks: send those now too.
      for (let extra = 0; handedOn.any && extra < 3; extra++) {
        handedOn.any = false;
        const more = await pass();
        const delivered = summary.delivered + more.delivered;
        summary = { ...more, delivered, failed: summary.failed + more.failed };
      }
      // A look at a sent message's receipt is no delivery left to make.
      const undelivered = summary.remaining - summary.watching;
      const pending = undelivered > 0 ? `, ${undelivered} still pending` : "";
      const quarantined =
        summary.quarantined > 0
          ? `, ${summary.quarantined} corrupt file(s) moved to ${paths.corrupt}`
          : "";
      say(
        `Outbox: ${summary.delivered} delivered, ${summary.failed} failed${pending}${quarantined}.`,
      );
      if (summary.failed > 0)
        say(`Failed deliveries are kept in ${paths.failed} (retry them with --retry-failed).`);
      exitWhenDone(summary.failed > 0 || undelivered > 0 ? 1 : 0);
      Object.assign(json, {
        delivered: summary.delivered,
        failed: summary.failed,
        pending: undelivered,
        quarantined: summary.quarantined,
      });
      return undelivered;
    };
    let done = await whileLocked(paths.lock, owner, drainNow);
    if (!done && !argv["retry-failed"] && (await waiting(paths)) === 0) {
      // A worker stays a while after its last delivery: holding the lock is not delivering.
      say("Outbox: nothing is waiting (a background worker is idle, ready for the next hook).");
      json.worker = "idle";
      finish();
      return;
    }
    // A worker asked to pause finishes the attempts in flight, releases the lock, and takes it
    // back after this flush with what is left (PROTOCOL.md, "pause"): it keeps the ${VAR}s this
    // shell may lack, and with them the retries it scheduled.
    let paused = false;
    if (!done) {
      say(
        `A background worker is delivering ${String(await waiting(paths))} notification(s); asking it to hand over…`,
      );
      const socket = await lockSocket(paths.lock);
      if (socket) paused = await sendWake(socket, "pause", process.pid);
      json.worker = "handed-over";
    }
    for (const giveUpAt = Date.now() + WAIT_FOR_WORKER_MS; !done && Date.now() < giveUpAt;) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      done = await whileLocked(paths.lock, owner, drainNow);
    }
    if (!done) {
      console.error("The background worker is still busy. Try again in a minute.");
      exitWhenDone(1);
      json.worker = "busy";
      finish();
      return;
    }
    finish();
    const left = done.value;
    // What is left (retries, held groups) is sent on schedule by a worker, not by the next hook.
    if (left > 0 && !paused) await startWorker(deps);
  },
};
