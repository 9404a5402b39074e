// E-mail mock: the message's real HTML part inside a plain mail-client reading pane.
import type { EmailMessage } from "../../src/sinks/email-message.js";
import { escapeHtml, page } from "./html.js";

const CSS = `
body{background:#fff;font:14px/1.4 "Open Sans","Noto Color Emoji",sans-serif;color:#222}
.head{padding:16px 24px 12px;border-bottom:1px solid #e0e0e0;background:#fafafa}
.subject{font-size:20px;font-weight:600;margin-bottom:8px}
.meta{color:#555;font-size:13px}.meta b{color:#222;font-weight:600}.part{padding:20px 24px 24px}`;

// The page for one message: subject, From/To/Date, then the HTML part untouched.
export function renderEmail(message: EmailMessage, frame: { time: string }): string {
  const date = new Date(frame.time).toUTCString();
  const body = `<div class="head"><div class="subject">${escapeHtml(message.subject)}</div>
<div class="meta"><b>From</b> ${escapeHtml(message.from)}<br><b>To</b> ${escapeHtml(message.to.join(", "))}
<br><b>Date</b> ${escapeHtml(date)}</div></div><div class="part">${message.html}</div>`;
  return page(CSS, body);
}
