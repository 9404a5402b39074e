// doctor's check of a chat entry: where the service allows it, one request that proves the entry
// (the webhook exists, the token is good) without notifying anyone; elsewhere DNS and a TCP
// connect, said as "reachable only". Loaded by doctor only (scripts/build.mjs keeps it out of the
// hook's bundle).
import type { SinkEntry } from "../../core/config.js";
import { fail, ok, type CheckResult } from "../../check-result.js";
import { withDeadline } from "../../abort.js";
import { postRequest } from "../../http/post.js";
import { checkReachable, onlyReachable } from "../../http/reachable-check.js";
import { toHookNotifyError } from "../../errors.js";
import { scrub } from "../../redact.js";
import type { ChatService, ServiceOptions } from "./service.js";
import { encodeBody } from "./index.js";

const PROBE_MS = 5_000;

/** Statuses that say the entry itself is wrong (deleted webhook, bad token, a user key the service
 * does not know: Pushover's validate answers 400), not the network. */
const GONE = new Set([400, 401, 403, 404, 410]);

// The service's own words about a refusal (Pushover's "user key is invalid"), short and masked.
function serviceSaid(body: string, secrets: readonly string[]): string {
  const text = scrub(body.replace(/\s+/g, " ").trim(), secrets).slice(0, 160);
  return text === "" ? "" : ` (${text})`;
}

export async function checkChatEntry(
  entry: SinkEntry,
  service: ChatService<ServiceOptions>,
  target: { url: string; shown: string },
  ctx: { env: Readonly<Record<string, string | undefined>>; secrets: readonly string[] },
): Promise<CheckResult> {
  const options = entry.options as ServiceOptions;
  const name = `${service.id} (${entry.name})`;
  const reach = { name: entry.name, label: service.id, url: target.url, shown: target.shown };
  if (!service.probe) {
    return onlyReachable(await checkReachable(reach, ctx.env), entry.name);
  }
  const request = service.probe(options);
  try {
    const response = await withDeadline(PROBE_MS, (signal) =>
      postRequest(
        {
          ...request,
          ...(typeof request.body === "string" ? { body: request.body } : encodeBody(request)),
        },
        { signal, env: ctx.env, sinkName: entry.name },
      ),
    );
    if (GONE.has(response.status)) {
      const why =
        response.status === 404 || response.status === 410
          ? "does not exist (deleted?)"
          : "refuses the credentials";
      const said = serviceSaid(response.text, ctx.secrets);
      return fail(
        name,
        `${target.shown}: ${service.name} answered HTTP ${String(response.status)}: the entry ${why}${said}`,
        `Create a new one in ${service.name} and put it in the config (sinks.${entry.name}).`,
        { sink: entry.name },
      );
    }
    if (response.status >= 500) {
      return fail(
        name,
        `${target.shown}: ${service.name} answered HTTP ${String(response.status)}`,
        `${service.name} has trouble; try again later.`,
        { sink: entry.name },
      );
    }
    if (request.unproved !== undefined) {
      const answered = `${target.shown}: ${service.name} answers (checked without sending)`;
      return {
        ...ok(name, `${answered}; ${request.unproved}`),
        status: "reachable",
        fix: `hook-notify test --sink ${entry.name} sends one sample`,
      };
    }
    return ok(name, `${target.shown}: ${service.name} knows this entry (checked without sending)`);
  } catch (error) {
    const message = scrub(toHookNotifyError(error).message, ctx.secrets);
    return fail(
      name,
      message,
      "Check the url's host name and the network (a proxy: set HTTPS_PROXY).",
      { sink: entry.name },
    );
  }
}
