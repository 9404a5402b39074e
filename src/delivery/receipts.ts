// Receipts: what a sink reported about a notification after handing it over (shown with the
// daemon's id, clicked, closed and why, acknowledged with when and by which device, expired),
// one journal line each in log.ndjson, where `hook-notify log` joins them to the notification's run by its id. A click or an
// acknowledgement also leaves an "opened" marker, which cancels the notification's follow-up.
import type { Deps } from "../deps.js";
import type { ReceiptEvent } from "../core/receipt.js";
import { notificationKey, recordAnswer } from "../escalation/answers.js";
import { inertText } from "../shown-text.js";
import { journal } from "../journal/append.js";

/** A sink's receipt reporter for one notification: each report is written when it is made. */
export interface ReceiptRecorder {
  report: (event: ReceiptEvent) => void;
}

// A sink's `ctx.receipt` for one notification at one sink; secrets are scrubbed from each line.
export function receiptRecorder(
  deps: Deps,
  target: { sink: string; id: string; of?: string | undefined },
  secrets: readonly string[],
): ReceiptRecorder {
  return {
    report: (event) => {
      const line = {
        outbox: "receipt" as const,
        sink: target.sink,
        id: target.id,
        state: event.state,
        ...(event.id === undefined ? {} : { messageId: event.id }),
        ...(event.reason === undefined ? {} : { reason: event.reason }),
        ...(event.at === undefined ? {} : { at: event.at }),
        // The service's words for a device or user: inert, one short line.
        ...(event.by === undefined ? {} : { by: inertText(event.by, "line").slice(0, 64) }),
      };
      journal(deps, line, secrets);
      // Opened: the person saw it, so nobody needs to chase them about it (delivery/presence-gate.ts).
      // A follow-up opened answers the notification it chases (and so its later follow-ups).
      if (event.state === "clicked" || event.state === "acknowledged")
        recordAnswer(deps, target.of ?? target.id, "opened", deps.now(), notificationKey);
    },
  };
}
