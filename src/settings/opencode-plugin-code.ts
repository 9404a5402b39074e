// The fixed code of the OpenCode plugin hook-notify writes (settings/plan-opencode-file.ts puts its
// entries before it): source as data, never built from an event.

/** The code every plugin of ours starts with: program() and runEntry(entry, payload). A relative
 * program (../hooks/hook-notify.sh) is the project's wrapper beside the plugin file. */
export const RUN_ENTRY_CODE = `
// Each event below runs hook-notify with an argument array (no shell) and the event as JSON on
// stdin. The agent is never told anything and never waits past the entry's timeout.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

function program(word) {
  return word.startsWith("./") || word.startsWith("../")
    ? fileURLToPath(new URL(word, import.meta.url))
    : word;
}

function runEntry(entry, payload) {
  return new Promise((resolve) => {
    try {
      const [command, ...args] = entry.command;
      const child = spawn(program(command), args, { stdio: ["pipe", "ignore", "ignore"] });
      const timer = setTimeout(() => child.kill("SIGKILL"), (entry.timeout + 2) * 1000);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      child.on("error", done);
      child.on("close", done);
      child.stdin.on("error", () => {});
      child.stdin.end(JSON.stringify(payload));
    } catch {
      resolve();
    }
  });
}
`;

// The code around the entries. A relative program (../hooks/hook-notify.sh) is the project's
// wrapper beside this file. The plugin follows each session's last assistant text (for the
// "done" message), and skips the idle that follows an error (the failure was notified).
export const OPENCODE_CODE = `${RUN_ENTRY_CODE}
// What the plugin remembers lives as long as OpenCode: each set keeps its newest entries only.
const REMEMBERED = 1000;
// The text parts kept per session: the newest one still there is the answer.
const PARTS = 8;

function remember(collection, key, value) {
  collection.delete(key);
  if (collection instanceof Map) collection.set(key, value);
  else collection.add(key);
  while (collection.size > REMEMBERED) collection.delete(collection.keys().next().value);
}

export const HookNotify = async ({ directory }) => {
  const assistant = new Set();
  const lastText = new Map();
  const failed = new Set();
  return {
    event: async ({ event }) => {
      try {
        const props = event.properties ?? {};
        const session = props.sessionID;
        if (event.type === "message.updated" && props.info?.role === "assistant") {
          remember(assistant, props.info.id);
        }
        if (event.type === "message.part.updated" && props.part?.type === "text") {
          if (assistant.has(props.part.messageID)) {
            const parts = lastText.get(session) ?? new Map();
            remember(parts, props.part.id ?? props.part.messageID, props.part.text);
            while (parts.size > PARTS) parts.delete(parts.keys().next().value);
            remember(lastText, session, parts);
          }
        }
        // A part taken back (Kilo's "Initializing snapshot" progress text) is not the answer.
        if (event.type === "message.part.removed") lastText.get(session)?.delete(props.partID);
        if (event.type === "session.status" && props.status?.type === "busy") failed.delete(session);
        if (event.type === "session.error") remember(failed, session);
        if (event.type === "session.idle" && failed.has(session)) return;
        const entry = Object.hasOwn(HOOKS, event.type) ? HOOKS[event.type] : undefined;
        if (entry === undefined) return;
        const payload = { ...event, directory };
        const said = [...(lastText.get(session)?.values() ?? [])].at(-1);
        if (event.type === "session.idle" && typeof said === "string") {
          payload.last_assistant_message = said;
        }
        await runEntry(entry, payload);
      } catch {
        // A notifier must never break the agent.
      }
    },
  };
};
`;
