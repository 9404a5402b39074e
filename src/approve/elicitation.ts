// An MCP server's form (Claude Code's `Elicitation` hook), answered from the phone. 2.1.332 sends
// the hook {mcp_server_name, message, mode: "form"|"url", url, elicitation_id, requested_schema}
// and takes `hookSpecificOutput {hookEventName "Elicitation", action accept|decline|cancel,
// content}`, which it hands to the server as the elicitation's result without showing its own
// form (`runElicitationHooks`: "Elicitation resolved by hook"). What a phone can fill safely is
// a choice: a form of one field that is a boolean (Yes / No) or a string with 2 to 4 allowed
// values (enum, enum with enumNames, or oneOf const/title); and, on Telegram, one plain string
// field answered by replying to the message (the reply made inert, on one line, within the
// field's length limits). Anything else (several fields, a number, a multi-select, a string with
// a format, a URL to open) is left to the client's own form, which shows.
import { HookNotifyError } from "../errors.js";
import { inertText } from "../shown-text.js";
import { MAX_REASON } from "./decision.js";
import { MAX_OPTIONS, type Question } from "./question.js";

/** The one field the phone fills, and the value each button puts in it. */
export interface ElicitationForm {
  /** The field's name as the server sent it: the key of `content`. */
  field: string;
  /** One value per button, in order (none for a text field). */
  values: (string | boolean)[];
  /** A plain string field, answered by a Telegram reply: its length limits in characters. */
  text?: { min: number; max: number } | undefined;
}

/** The longest typed answer passed on: a reply longer than MAX_REASON is cut to it with a mark
 * (decision.ts), so a cut reply never fits. */
const MAX_TEXT = MAX_REASON - 1;

/** What the phone asks, and how the answer goes back. */
export interface ElicitationAsk {
  server: string;
  question: Question;
  form: ElicitationForm;
}

const MAX_MESSAGE = 1000;
const MAX_LABEL = 200;

// The hook input (already one JSON object) → what the phone asks, or a HookNotifyError (INPUT_*)
// saying why the client's own form shows instead.
export function readElicitation(raw: Record<string, unknown>): ElicitationAsk {
  const server = typeof raw.mcp_server_name === "string" ? raw.mcp_server_name : "";
  if (raw.mode !== undefined && raw.mode !== "form") {
    throw leave(`a ${JSON.stringify(raw.mode)} elicitation (a page to open, not a choice)`);
  }
  const message = raw.message;
  if (typeof message !== "string" || message === "" || message.length > MAX_MESSAGE) {
    throw leave("a form without a message this version can show");
  }
  const schema = isObject(raw.requested_schema) ? raw.requested_schema : {};
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  if (properties.length !== 1) {
    throw leave(`a form of ${properties.length} fields; the phone fills a single choice only`);
  }
  const [[field, spec]] = properties as [[string, unknown]];
  const fieldSpec = isObject(spec) ? spec : {};
  const text = readText(fieldSpec);
  const choice = text === undefined ? readChoice(fieldSpec) : { labels: [], values: [] };
  const about = isObject(spec) ? [spec.title, spec.description] : [];
  const said = about.filter((part): part is string => typeof part === "string" && part !== "");
  const asked = said.length === 0 ? message : `${message} (${said.join(": ")})`;
  const hint =
    text === undefined
      ? ""
      : ` Reply to this message with your answer (${text.min} to ${text.max} characters).`;
  const shownServer = inertText(server === "" ? "an MCP server" : server, "line");
  return {
    server,
    question: {
      text: `${asked}${hint}`,
      labels: choice.labels,
      descriptions: choice.labels.map(() => ""),
      title: `the MCP server ${shownServer} asks you`,
    },
    form: { field, values: choice.values, ...(text === undefined ? {} : { text }) },
  };
}

// The choice one field offers: Yes/No for a boolean, the allowed values (or their titles) for a
// string enum; anything else is not a choice.
function readChoice(spec: Record<string, unknown>): {
  labels: string[];
  values: (string | boolean)[];
} {
  if (spec.type === "boolean") return { labels: ["Yes", "No"], values: [true, false] };
  if (spec.type !== "string") {
    throw leave(`a ${JSON.stringify(spec.type)} field; the phone fills a choice only`);
  }
  const pairs: [unknown, unknown][] = Array.isArray(spec.oneOf)
    ? (spec.oneOf as unknown[]).map((item): [unknown, unknown] =>
        isObject(item) ? [item.const, item.title] : [undefined, undefined],
      )
    : Array.isArray(spec.enum)
      ? (spec.enum as unknown[]).map((value, index): [unknown, unknown] => [
          value,
          Array.isArray(spec.enumNames) ? (spec.enumNames as unknown[])[index] : value,
        ])
      : [];
  if (pairs.length === 0) throw leave("a string field with a format (an e-mail, a date, …)");
  const values = pairs.map(([value]) => value);
  const labels = pairs.map(([value, title]) => (typeof title === "string" ? title : value));
  if (
    pairs.length < 2 ||
    pairs.length > MAX_OPTIONS ||
    !values.every((value) => typeof value === "string") ||
    !labels.every((l) => typeof l === "string" && l !== "" && l.length <= MAX_LABEL) ||
    new Set(labels).size !== labels.length
  ) {
    throw leave(
      `a choice of ${pairs.length} values this version cannot show (2 to ${MAX_OPTIONS})`,
    );
  }
  return { labels: labels as string[], values: values };
}

// A plain string field (no choices, no format) whose limits leave room for a typed answer.
function readText(spec: Record<string, unknown>): ElicitationForm["text"] {
  if (spec.type !== "string" || "enum" in spec || "oneOf" in spec || "format" in spec) {
    return undefined;
  }
  const min = typeof spec.minLength === "number" ? Math.max(1, Math.ceil(spec.minLength)) : 1;
  const max =
    typeof spec.maxLength === "number" ? Math.min(MAX_TEXT, Math.floor(spec.maxLength)) : MAX_TEXT;
  if (min > max) throw leave(`a text field of ${min} characters or more`);
  return { min, max };
}

// True when the typed answer (already inert: decision.ts inertReason) fits the text field.
export function fitsText(form: ElicitationForm, typed: string): boolean {
  const length = Array.from(typed).length;
  return form.text !== undefined && length >= form.text.min && length <= form.text.max;
}

function leave(why: string): HookNotifyError {
  return new HookNotifyError("INPUT_INVALID", `Elicitation: ${why}; the client's own form shows.`);
}

// The hook's answer: accept, with the chosen value (a button's index, or the typed text) in the
// one field.
export function elicitationAnswerJson(form: ElicitationForm, chosen: number | string): string {
  const value = typeof chosen === "string" ? chosen : form.values[chosen];
  if (value === undefined)
    throw new Error(`approve: option ${Number(chosen) + 1} is not in the form`);
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "Elicitation",
      action: "accept",
      content: { [form.field]: value },
    },
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
