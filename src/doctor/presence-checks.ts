// What each presence probe sees right now (for "when": "away"), and how long it took.
import type { Deps } from "../deps.js";
import { presenceNow } from "../delivery/presence-gate.js";
import { ok, warn, type CheckResult } from "../check-result.js";

/** Who asks the presence probes in this config: "when": "away" and digest sinks, and the rest
 * (follow-ups, approve); nobody and not --deep: the probes are not started. */
export interface PresenceUsers {
  awaySinks: readonly string[];
  others: readonly string[];
  probe: boolean;
}

// Doctor runs in the terminal the agent would use: its parent shell stands for the agent.
export async function checkPresence(
  deps: Pick<Deps, "env" | "platform" | "now" | "ppid">,
  users: PresenceUsers,
): Promise<CheckResult[]> {
  const { awaySinks, others } = users;
  if (!users.probe)
    return [
      ok(
        "presence",
        'no sink waits for you to be away ("when": "away", digest), no follow-up (escalate), approve does not ask; not probed (doctor --deep probes)',
      ),
    ];
  const presence = await presenceNow({
    env: deps.env,
    pid: deps.ppid ?? 0,
    idleSeconds: 120,
    platform: deps.platform,
    now: deps.now(),
  });
  const readings = presence.readings.map((r) =>
    ok(`presence: ${r.probe}`, `${r.detail} (${String(r.ms)} ms)`),
  );
  const summary = `${presence.state} by ${presence.probe}: ${presence.detail} (${String(presence.ms)} ms in all)`;
  const uses =
    (awaySinks.length > 0
      ? `; sinks that ask it ("when": "away", digest): ${awaySinks.join(", ")}`
      : "") + (others.length > 0 ? `; also asked by ${others.join(", ")}` : "");
  if (presence.state === "unknown" && awaySinks.length > 0) {
    const fix =
      presence.readings.length === 0
        ? "No probe fits this system: away-only sinks always notify here, digests never hold."
        : "Install the probe programs named above (e.g. xprintidle), or run the agent inside tmux.";
    return [...readings, warn("presence", `${summary}${uses}`, fix)];
  }
  return [...readings, ok("presence", `${summary}${uses}`)];
}
