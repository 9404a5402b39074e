// Slack mock: an app message rendering the payload's Block Kit blocks (header, mrkdwn section,
// context) the way the Slack desktop client does, in its light theme.
import { clockTime, escapeHtml, escapeLines, page } from "./html.js";

interface TextObject {
  type: "plain_text" | "mrkdwn";
  text: string;
}
interface Block {
  type: string;
  text?: TextObject;
  elements?: TextObject[];
}
/** The part of an incoming-webhook body that Slack shows in the channel. */
export interface SlackPayload {
  text: string;
  blocks?: Block[];
}

const CSS = `
body{background:#fff;font:15px/1.46668 Lato,"Noto Color Emoji",sans-serif;color:#1d1c1d}
.channel{padding:10px 20px;border-bottom:1px solid #ddd;font-weight:900;font-size:18px}
.msg{display:flex;gap:8px;padding:12px 20px 16px}
.avatar{flex:none;width:36px;height:36px;border-radius:6px;background:#4a154b;color:#fff;
  display:grid;place-items:center;font-size:20px}
.who b{font-weight:900}.badge{font-size:10px;font-weight:700;background:#e8e8e8;color:#616061;
  border-radius:2px;padding:1px 3px;margin:0 4px;vertical-align:2px}.time{color:#616061;font-size:12px}
.header{font-size:18px;font-weight:900;line-height:1.33;margin:6px 0 4px}
.section{margin:4px 0}.context{color:#616061;font-size:12px;margin-top:6px}
code{font:12px Monaco,"DejaVu Sans Mono",monospace;color:#e01e5a;background:#f8f8f8;
  border:1px solid #ddd;border-radius:3px;padding:2px 3px}`;

// mrkdwn as Slack shows it: entities decoded, then `code`, *bold*, _italic_, ~strike~, line breaks.
function mrkdwn(text: string): string {
  const decoded = text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  return escapeLines(decoded)
    .replace(/`([^`\n]+)`/g, "<code>$1</code>")
    .replace(/(^|\W)\*([^*\n]+)\*(?=\W|$)/g, "$1<b>$2</b>")
    .replace(/(^|\W)_([^_\n]+)_(?=\W|$)/g, "$1<i>$2</i>")
    .replace(/(^|\W)~([^~\n]+)~(?=\W|$)/g, "$1<s>$2</s>");
}

function renderText(text: TextObject): string {
  return text.type === "mrkdwn" ? mrkdwn(text.text) : escapeLines(text.text);
}

function renderBlock(block: Block): string {
  if (block.type === "header" && block.text) {
    return `<div class="header">${renderText(block.text)}</div>`;
  }
  if (block.type === "section" && block.text) {
    return `<div class="section">${renderText(block.text)}</div>`;
  }
  if (block.type === "context" && block.elements) {
    return `<div class="context">${block.elements.map(renderText).join(" ")}</div>`;
  }
  return "";
}

// The page for one payload; without blocks Slack shows the `text` fallback as mrkdwn.
export function renderSlack(payload: SlackPayload, frame: { app: string; time: string }): string {
  const content = payload.blocks
    ? payload.blocks.map(renderBlock).join("")
    : `<div class="section">${mrkdwn(payload.text)}</div>`;
  const body = `<div class="channel"># agents</div><div class="msg"><div class="avatar">🔔</div>
<div><div class="who"><b>${escapeHtml(frame.app)}</b><span class="badge">APP</span>
<span class="time">${clockTime(frame.time)}</span></div>${content}</div></div>`;
  return page(CSS, body);
}
