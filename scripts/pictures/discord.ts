// Discord mock: a webhook message in the dark theme, its content line and each embed with the
// colour bar, author, title, description, fields, footer and timestamp the payload carries.
import { clockTime, escapeHtml, escapeLines, page } from "./html.js";

interface Embed {
  color?: number;
  author?: { name: string };
  title?: string;
  description?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
  timestamp?: string;
}
/** The part of an Execute Webhook body that Discord shows in the channel. */
export interface DiscordPayload {
  content?: string;
  username?: string;
  embeds?: Embed[];
}

const CSS = `
body{background:#313338;color:#dbdee1;font:16px/1.375 "Open Sans","Noto Color Emoji",sans-serif}
.msg{display:flex;gap:16px;padding:16px 16px 18px}
.avatar{flex:none;width:40px;height:40px;border-radius:50%;background:#5865f2;display:grid;
  place-items:center;font-size:20px}
.who b{color:#f2f3f5;font-weight:600}.badge{font-size:10px;font-weight:700;background:#5865f2;
  color:#fff;border-radius:3px;padding:1px 4px;margin:0 6px;vertical-align:2px}
.time{color:#949ba4;font-size:12px}.main{min-width:0;flex:1}
.embed{margin-top:4px;width:fit-content;min-width:300px;max-width:520px;box-sizing:border-box;background:#2b2d31;border-left:4px solid;border-radius:4px;
  padding:8px 16px 16px 12px}
.author,.fname{font-size:14px;font-weight:600;color:#f2f3f5;margin-top:8px}
.title{font-weight:600;color:#f2f3f5;margin-top:8px}.desc{font-size:14px;margin-top:8px}
.fields{display:flex;flex-wrap:wrap;column-gap:16px}.field{flex:1 1 100%;font-size:14px}
.field.inline{flex:1 1 30%}.footer{font-size:12px;color:#dbdee1;margin-top:8px}
code{font:13px "DejaVu Sans Mono",monospace;background:#1e1f22;border-radius:3px;padding:1px 3px}`;

// Discord markdown, the common part: `code`, **bold**, *italic*, line breaks.
function markdown(text: string): string {
  return escapeLines(text)
    .replace(/`([^`\n]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*\n]+)\*\*/g, "<b>$1</b>")
    .replace(/(^|\W)\*([^*\n]+)\*(?=\W|$)/g, "$1<i>$2</i>");
}

function renderEmbed(embed: Embed): string {
  const colour = `#${(embed.color ?? 0x1e1f22).toString(16).padStart(6, "0")}`;
  const parts = [
    embed.author ? `<div class="author">${escapeHtml(embed.author.name)}</div>` : "",
    embed.title ? `<div class="title">${escapeHtml(embed.title)}</div>` : "",
    embed.description ? `<div class="desc">${markdown(embed.description)}</div>` : "",
  ];
  if (embed.fields) {
    const fields = embed.fields.map(
      (f) => `<div class="field${f.inline ? " inline" : ""}"><div class="fname">
${escapeHtml(f.name)}</div>${markdown(f.value)}</div>`,
    );
    parts.push(`<div class="fields">${fields.join("")}</div>`);
  }
  const small = [
    embed.footer?.text,
    embed.timestamp ? `Today at ${clockTime(embed.timestamp)}` : undefined,
  ];
  const footer = small.filter((s): s is string => s !== undefined).map(escapeHtml);
  if (footer.length > 0) parts.push(`<div class="footer">${footer.join(" • ")}</div>`);
  return `<div class="embed" style="border-color:${colour}">${parts.join("")}</div>`;
}

// The page for one payload; `username` overrides the webhook's own name.
export function renderDiscord(
  payload: DiscordPayload,
  frame: { name: string; time: string },
): string {
  const content = payload.content ? `<div>${markdown(payload.content)}</div>` : "";
  const embeds = (payload.embeds ?? []).map(renderEmbed).join("");
  const body = `<div class="msg"><div class="avatar">🔔</div><div class="main"><div class="who">
<b>${escapeHtml(payload.username ?? frame.name)}</b><span class="badge">APP</span>
<span class="time">Today at ${clockTime(frame.time)}</span></div>${content}${embeds}</div></div>`;
  return page(CSS, body);
}
