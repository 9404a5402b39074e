// Teams mock: the Adaptive Card of a Workflows message drawn as Teams draws it in the light theme:
// TextBlock (size, weight, colour, subtle), FactSet, ColumnSet and Container.
import { clockTime, escapeHtml, page } from "./html.js";

interface Element {
  type: string;
  text?: string;
  size?: string;
  weight?: string;
  color?: string;
  isSubtle?: boolean;
  facts?: { title: string; value: string }[];
  columns?: { items?: Element[]; width?: string | number }[];
  items?: Element[];
}
/** The body of a Workflows webhook request: a message with Adaptive Card attachments. */
export interface TeamsPayload {
  attachments: { contentType: string; content: { body: Element[] } }[];
}

// Font sizes and colours of the Adaptive Cards default host config, light theme.
const SIZES: Record<string, string> = {
  small: "12px",
  default: "14px",
  medium: "17px",
  large: "21px",
  extralarge: "26px",
};
const COLOURS: Record<string, string> = {
  default: "#242424",
  dark: "#242424",
  light: "#ffffff",
  accent: "#5b5fc7",
  good: "#0e700e",
  warning: "#835c00",
  attention: "#c4314b",
};

const CSS = `
body{background:#f5f5f5;font:14px/1.43 "Open Sans","Noto Color Emoji",sans-serif;color:#242424}
.msg{display:flex;gap:12px;padding:16px 20px 20px}
.avatar{flex:none;width:32px;height:32px;border-radius:50%;background:#2266e3;display:grid;
  place-items:center;font-size:16px}
.bubble{flex:1;background:#fff;border-radius:6px;box-shadow:0 1px 2px rgba(0,0,0,.14);
  padding:8px 16px 16px}.who{font-size:12px;color:#616161;margin-bottom:8px}
.who b{color:#242424;font-weight:600;margin-right:8px}
.card>*+*{margin-top:8px}.facts td{padding:0 12px 4px 0;vertical-align:top}
.facts td:first-child{font-weight:600}.cols{display:flex;gap:12px}.cols>*{flex:1}`;

function textBlock(el: Element): string {
  const size = SIZES[(el.size ?? "default").toLowerCase()] ?? SIZES.default;
  const colour = COLOURS[(el.color ?? "default").toLowerCase()] ?? COLOURS.default;
  const weight = el.weight?.toLowerCase() === "bolder" ? 600 : 400;
  const opacity = el.isSubtle ? "opacity:.75;" : "";
  const style = `font-size:${size ?? "14px"};color:${colour ?? "#242424"};font-weight:${weight};${opacity}`;
  return `<div style="${style}">${markdown(el.text ?? "")}</div>`;
}

// TextBlock text is Markdown: a single \n is a soft break (a space), only \n\n starts a new line
// (https://github.com/microsoft/AdaptiveCards/issues/5538); **bold** and _italic_ work.
function markdown(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) =>
      escapeHtml(paragraph.replaceAll("\n", " "))
        .replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>")
        .replace(/(^|\W)_([^_]+)_(?=\W|$)/g, "$1<i>$2</i>"),
    )
    .join("<br>");
}

function renderElement(el: Element): string {
  switch (el.type) {
    case "TextBlock":
      return textBlock(el);
    case "FactSet": {
      const rows = (el.facts ?? []).map(
        (f) => `<tr><td>${escapeHtml(f.title)}</td><td>${markdown(f.value)}</td></tr>`,
      );
      return `<table class="facts">${rows.join("")}</table>`;
    }
    case "ColumnSet": {
      const columns = (el.columns ?? []).map(
        (c) => `<div>${(c.items ?? []).map(renderElement).join("")}</div>`,
      );
      return `<div class="cols">${columns.join("")}</div>`;
    }
    case "Container":
      return `<div class="card">${(el.items ?? []).map(renderElement).join("")}</div>`;
    default:
      return "";
  }
}

// The page for one payload: each Adaptive Card attachment inside a message from Workflows.
export function renderTeams(
  payload: TeamsPayload,
  frame: { sender: string; time: string },
): string {
  const cards = payload.attachments
    .filter((a) => a.contentType === "application/vnd.microsoft.card.adaptive")
    .map((a) => `<div class="card">${a.content.body.map(renderElement).join("")}</div>`);
  const body = `<div class="msg"><div class="avatar">⚡</div><div class="bubble"><div class="who">
<b>${escapeHtml(frame.sender)}</b>${clockTime(frame.time)}</div>${cards.join("")}</div></div>`;
  return page(CSS, body);
}
