// The work of `hook-notify controls history`: the newest revisions, each with its diff against
// the one before it (one revision more is read for the oldest shown).
import { listControlHistory } from "../service/client.js";
import type { ControlChange } from "../service/schemas.js";
import { checkLimit } from "../service/session-api.js";
import { diffSettings, maskDeep } from "../service/watch/diff-settings.js";
import { withService, type CommandIo } from "./service-command.js";
import { cell } from "./cells.js";

// Exit code: 0 with the history printed, 2 a usage mistake, 3 refused, 1 another failure.
export async function runControls(
  io: CommandIo,
  options: {
    configPath?: string | undefined;
    limit: number;
    json: boolean;
    timeoutSeconds?: number | undefined;
  },
): Promise<number> {
  return withService(io, "controls history", options, async (ctx) => {
    const limit = checkLimit(options.limit);
    const history: ControlChange[] = [];
    for await (const change of listControlHistory(ctx, Math.min(100, limit + 1))) {
      history.push(change);
      if (history.length > limit) break;
    }
    const shown = history.slice(0, limit);
    if (options.json) {
      io.out(JSON.stringify(maskDeep(shown), null, 2));
      return;
    }
    for (const [i, change] of shown.entries()) {
      const who = change.user?.name ?? change.user?.email ?? change.user?.id ?? "someone";
      io.out(
        `Revision ${String(change.revision)} by ${cell(who)} at ${cell(change.updatedAt ?? "?")}`,
      );
      const before = history[i + 1];
      if (!before) {
        io.out("  (the oldest revision read: no diff)");
        continue;
      }
      const changes = diffSettings(before.settings ?? {}, change.settings ?? {});
      for (const line of changes.length ? changes : [{ line: "(no setting differs)" }])
        io.out(`  ${cell(line.line, 200)}`);
    }
  });
}
