// Reading a chat service's answer: the pieces every service's `read` shares.
import { HookNotifyError } from "../../errors.js";
import { assertSuccess, type HttpResponse } from "../../http/post.js";
import { redactUrl } from "../../redact.js";
import type { ChatReceipt } from "./service.js";

/** What a failed answer says, for HookNotifyError. */
export interface Rejection {
  sinkName: string;
  service: string;
  status: number;
  /** What the service said, already cut to one short line. */
  said?: string | undefined;
  hint: string;
  retryable: boolean;
  retryAfterMs?: number | undefined;
}

// The body as JSON, or undefined when it is not JSON (a proxy's HTML page).
export function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

// A service's words in an error message: one line, ≤ 200 characters, URLs cut to their origin.
export function shortText(text: unknown): string | undefined {
  if (typeof text !== "string" || text.trim() === "") return undefined;
  return text
    .replace(/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, (url) => redactUrl(url))
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
}

// Throws the SINK_HTTP_STATUS error for a rejected message.
export function reject(rejection: Rejection): never {
  const said = rejection.said === undefined ? "" : ` "${rejection.said}"`;
  throw new HookNotifyError(
    "SINK_HTTP_STATUS",
    `${rejection.sinkName}: ${rejection.service} answered ${rejection.status}${said}: ${rejection.hint}.`,
    {
      sink: rejection.sinkName,
      retryable: rejection.retryable,
      status: rejection.status,
      service: rejection.service,
      ...(rejection.retryAfterMs === undefined ? {} : { retryAfterMs: rejection.retryAfterMs }),
    },
  );
}

// The status line alone decides (webhooks answering "ok" or an empty 2xx).
export function readStatus(service: string) {
  return (response: HttpResponse, sinkName: string): ChatReceipt => {
    assertSuccess(response, { sinkName, service });
    return {};
  };
}

// A string or number id from a JSON answer, as text.
export function idOf(value: unknown): string | undefined {
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

// test's advice for a webhook service whose URL answers 404 or 410: it was revoked.
export function explainGoneWebhook(name: string) {
  return ({ code, status }: { code?: string | undefined; status?: number | undefined }) =>
    code === "SINK_HTTP_STATUS" && (status === 404 || status === 410)
      ? `the webhook URL was revoked or is wrong; create a new one in ${name}'s settings`
      : undefined;
}
