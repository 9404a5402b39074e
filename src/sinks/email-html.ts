// The mail's HTML part: a small inline-styled card, every piece of agent text escaped.
import type { Level, Notification } from "../core/notification.js";

const ACCENTS: Record<Level, string> = {
  failure: "#c62828",
  attention: "#b26a00",
  done: "#2e7d32",
  info: "#1565c0",
  limit: "#e65100",
};

// A small inline-styled card: mail clients drop <style>; a red accent marks failures.
export function emailHtml(n: Notification, facts: [string, string][]): string {
  const accent = ACCENTS[n.level];
  const rows = facts
    .map(
      ([k, v]) =>
        `<tr><td style="color:#666;padding:2px 12px 2px 0">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`,
    )
    .join("");
  return [
    `<div style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px;color:#222;max-width:640px">`,
    `<div style="border-left:4px solid ${accent};padding:8px 16px">`,
    `<h2 style="margin:0 0 8px;font-size:17px;color:${accent}">${escapeHtml(n.title)}</h2>`,
    `<p style="margin:0 0 12px;white-space:pre-wrap">${escapeHtml(n.body)}</p>`,
    `<table style="border-collapse:collapse;font-size:13px">${rows}</table>`,
    `</div><p style="color:#999;font-size:12px;margin:8px 0 0 20px">Sent by hook-notify</p></div>`,
  ].join("\n");
}

// Agent text goes into HTML: every markup character is escaped.
export function escapeHtml(text: string): string {
  const entities: Record<string, string> = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
  };
  return text.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}
