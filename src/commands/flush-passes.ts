// `flush`'s passes over pending/: each attempt printed as it ends, and the fallbacks a pass handed
// deliveries on to sent in the next.
import type { Enrich } from "../delivery/deliver-entry.js";
import type { Deps } from "../deps.js";
import { drain, type DrainSummary } from "../worker/drain.js";
import type { FlushArgs } from "./flush-drain.js";
import { reportAttempt, type FlushReport } from "./flush-report.js";

// Passes over pending/: the first, then up to three more while one handed deliveries on to
// their fallbacks.
export async function passes(
  deps: Deps,
  argv: FlushArgs,
  report: FlushReport,
): Promise<DrainSummary> {
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
        if (reportAttempt(r, report)) handedOn.any = true;
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
  return summary;
}
