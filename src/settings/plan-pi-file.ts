// Pi has no command hooks: hook-notify writes an extension of its own into Pi's extensions folder,
// the same way as OpenCode's plugin (fixed code plus one JSON object of entries; nothing from an
// event ever becomes source, hook-notify runs without a shell). Pi 1.6.0's extension API
// (docs/extensions.md): agent_end carries the run's messages, agent_settled says Pi will not go
// on by itself (aborted: the person stopped it), session_shutdown says why the session ends.
import { pluginShape, type PluginKind } from "./plan-opencode-file.js";
import { RUN_ENTRY_CODE } from "./opencode-plugin-code.js";

const CODE = `${RUN_ENTRY_CODE}
function textOf(message) {
  const parts = Array.isArray(message?.content) ? message.content : [];
  const text = parts.filter((p) => p?.type === "text").map((p) => p.text).join("");
  return text === "" ? undefined : text;
}

function sessionOf(ctx) {
  try {
    return ctx.sessionManager.getSessionId();
  } catch {
    return undefined;
  }
}

export default function hookNotify(pi) {
  let answer;
  const send = async (type, event, ctx, more) => {
    const entry = HOOKS[type];
    if (entry === undefined) return;
    await runEntry(entry, { ...event, type, cwd: ctx?.cwd, session_id: sessionOf(ctx), ...more });
  };
  pi.on("agent_end", async (event) => {
    try {
      const messages = Array.isArray(event?.messages) ? event.messages : [];
      answer = messages.findLast((m) => m?.role === "assistant");
    } catch {
      answer = undefined;
    }
  });
  pi.on("agent_settled", async (event, ctx) => {
    try {
      const last = answer;
      answer = undefined;
      await send("agent_settled", event, ctx, {
        last_assistant_message: textOf(last),
        stop_reason: last?.stopReason,
        error_message: last?.errorMessage,
      });
    } catch {
      // A notifier must never break the agent.
    }
  });
  pi.on("session_shutdown", async (event, ctx) => {
    try {
      await send("session_shutdown", event, ctx, {});
    } catch {
      // A notifier must never break the agent.
    }
  });
}
`;

/** The first line of every Pi extension hook-notify writes. */
export const PI_MARKER = "// hook-notify extension for Pi";

const PI: PluginKind = { marker: PI_MARKER, code: CODE };

// Pi's shape: an extension of hook-notify's own.
export const piShape = pluginShape("pi-extension", PI);
