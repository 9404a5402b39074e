// Phone mock: the ntfy messages a real hook-notify run published (the JSON bodies a local stand-in
// of ntfy received), drawn as the ntfy Android app's notifications in the notification shade.
// Usage (through scripts/render-pictures.mjs): node phone.mjs <bodies.json> <out.html>
import { readFileSync, writeFileSync } from "node:fs";
import { escapeHtml, escapeLines, page } from "./html.js";

/** The part of an ntfy JSON publish that the app shows. */
export interface NtfyPublish {
  topic: string;
  title?: string;
  message?: string;
  priority?: number;
  tags?: string[];
}

// ntfy shows a tag that names an emoji as that emoji before the title and lists the others under
// the message; these are the names hook-notify's messages use.
const EMOJI: Record<string, string> = {
  bell: "🔔",
  white_check_mark: "✅",
  rotating_light: "🚨",
  computer: "💻",
  warning: "⚠️",
};

const CSS = `
body{width:390px;height:844px;overflow:hidden;font:14px/1.4 Roboto,"DejaVu Sans","Noto Color Emoji",sans-serif;
  background:#263445;color:#fff}
.status{display:flex;justify-content:space-between;padding:10px 22px 0;font-size:13px;color:#e8eef5}
.clock{font-size:64px;font-weight:300;text-align:center;margin:46px 0 0;letter-spacing:1px}
.date{text-align:center;color:#d5dde6;font-size:15px;margin-bottom:28px}
.card{background:#f4f6f8;color:#1b1c1e;border-radius:22px;margin:8px 12px;padding:14px 16px 15px}
.head{display:flex;align-items:center;gap:8px;font-size:12px;color:#55606b}
.icon{width:20px;height:20px;border-radius:50%;background:#338574;color:#fff;display:grid;
  place-items:center;font-size:11px;font-weight:700}
.title{font-weight:700;font-size:15px;margin:8px 0 2px}
.message{color:#3a4047}.tags{color:#6a737d;font-size:12px;margin-top:6px}`;

// One message as the app shows it: emoji tags before the title, the other tags under the message.
function card(message: NtfyPublish): string {
  const tags = message.tags ?? [];
  const emoji = tags.flatMap((tag) => (EMOJI[tag] === undefined ? [] : [EMOJI[tag]]));
  const other = tags.filter((tag) => EMOJI[tag] === undefined);
  const title = [...emoji, message.title ?? message.topic].join(" ");
  return [
    '<div class="card">',
    `<div class="head"><span class="icon">n</span>ntfy · ${escapeHtml(message.topic)} · now</div>`,
    `<div class="title">${escapeHtml(title)}</div>`,
    `<div class="message">${escapeLines(message.message ?? "")}</div>`,
    other.length > 0 ? `<div class="tags">Tags: ${escapeHtml(other.join(", "))}</div>` : "",
    "</div>",
  ].join("");
}

/** The phone page: the newest message on top, as Android stacks them. Pure. */
export function renderPhone(messages: readonly NtfyPublish[], clock: string, date: string): string {
  const body = [
    `<div class="status"><span>${clock}</span><span>▾ ▴ ▮</span></div>`,
    `<div class="clock">${clock}</div><div class="date">${date}</div>`,
    ...[...messages].reverse().map(card),
  ].join("");
  return page(CSS, body);
}

const [input, output] = process.argv.slice(2);
if (input !== undefined && output !== undefined) {
  const messages = JSON.parse(readFileSync(input, "utf8")) as NtfyPublish[];
  writeFileSync(output, renderPhone(messages, "12:00", "Sunday, 22 November"));
}
