// Shared pieces of the picture mocks: escaping and the page shell that chromium screenshots.

import { escapeHtml } from "../../src/sinks/email-html.js";

// Text from a payload always goes into the mock page escaped, as the e-mail sink does it.
export { escapeHtml };

// Line breaks in payload text become <br> once the text is escaped.
export function escapeLines(text: string): string {
  return escapeHtml(text).replaceAll("\n", "<br>");
}

// "Today at 12:00" style clock time of an ISO timestamp, in UTC so pictures are reproducible.
export function clockTime(iso: string): string {
  return new Date(iso).toISOString().slice(11, 16);
}

// One standalone page; the script writes the content height into <body data-height> so the caller
// can size the screenshot window to it (chromium --dump-dom shows the DOM after scripts ran).
export function page(css: string, body: string): string {
  return [
    "<!doctype html>",
    '<html><head><meta charset="utf-8">',
    `<style>html,body{margin:0}#shot{display:flow-root}${css}</style>`,
    `</head><body><div id="shot">${body}</div>`,
    "<script>document.body.dataset.height=" +
      "Math.ceil(document.getElementById('shot').getBoundingClientRect().height)</script>",
    "</body></html>",
  ].join("\n");
}
