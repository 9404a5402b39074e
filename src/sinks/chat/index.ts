// The `chat` sink: one message to a chat or push service. Each service is one file declaring
// everything about it (service.ts, the contract); this file walks the list (services.ts) and
// knows no service by name.
import * as z from "../../zod.js";
import { postRequest } from "../../http/post.js";
import type { Deps } from "../../deps.js";
import type { Notification } from "../../core/notification.js";
import { redactUrl, scrubValue, secretPartsOf } from "../../redact.js";
import { secretValuesOf } from "../../secret-values.js";
import { defineSink } from "../sink.js";
import type { ChatRequest, ChatService, ServiceOptions } from "./service.js";
import { chatServices, CHAT_SERVICES, findService, type ChatOptions } from "./services.js";
import { isAppriseUrl } from "./url-option.js";

// The list and the types callers (tests, approve) know the sink by.
export { CHAT_SERVICES, type ChatOptions, type ChatServiceId } from "./services.js";
export type { ChatRequest } from "./service.js";

const schemas = new Map<string, z.ZodMiniType>();

// One service's entry options: `service` plus its own shape and rules (built once).
export function serviceSchema(service: ChatService<ServiceOptions>): z.ZodMiniType {
  const cached = schemas.get(service.id);
  if (cached) return cached;
  const id = z.literal(service.id).check(z.describe(`${service.name}.`));
  const base = z.strictObject({ service: id, ...service.shape() });
  const { refine } = service;
  const schema = refine
    ? base.check(
        z.superRefine((options, ctx) => {
          const problem = refine(options);
          if (problem)
            ctx.addIssue({ code: "custom", message: problem.message, path: [problem.path] });
        }),
      )
    : base;
  schemas.set(service.id, schema);
  return schema;
}

/** Options of a `chat` entry: one shape per service, chosen by `service`. */
function optionsSchema() {
  const variants = chatServices.map((service) =>
    serviceSchema(service as unknown as ChatService<ServiceOptions>),
  ) as unknown as [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]];
  return z.discriminatedUnion("service", variants, {
    error: `use one of: ${CHAT_SERVICES.join(", ")}`,
  }) as unknown as z.ZodMiniType<ChatOptions>;
}

// The entry's service; the schema admits no other, so a miss is a programming error.
function serviceOf(options: ServiceOptions): ChatService<ServiceOptions> {
  const service = findService(options.service);
  if (!service) throw new TypeError(`unknown chat service ${JSON.stringify(options.service)}`);
  return service;
}

// The options as the service builds from them: an Apprise `url` read into its fields.
export function resolveOptions(options: ServiceOptions): ServiceOptions {
  const service = serviceOf(options);
  const url = (options as { url?: unknown }).url;
  if (typeof url !== "string" || !isAppriseUrl(url, service.apprise)) return options;
  return { ...options, ...service.apprise.parse(url) };
}

// The exact request for one notification, secrets included: what `send` sends (with `key`, the
// machine key, when the service signs a button; a dry run shows where the signature goes).
export function buildChatRequest(
  notification: Notification,
  options: ChatOptions,
  key?: Buffer,
): ChatRequest {
  const resolved = resolveOptions(options);
  return serviceOf(resolved).build(notification, resolved, key);
}

// The machine key when the entry's service signs (created on first use), else undefined.
async function keyFor(service: ChatService<ServiceOptions>, options: ServiceOptions, deps: Deps) {
  if (!service.signs?.(options)) return undefined;
  const { machineKey } = await import("../../machine-key.js");
  return machineKey(deps);
}

// Every secret of an entry as it may show up: the options the schema marks secret (an Apprise
// URL read into its parts included), their URL pieces and encodings, and the service's own.
export function secretsOfOptions(options: ChatOptions): string[] {
  const resolved = resolveOptions(options);
  const service = serviceOf(resolved);
  const values = [
    ...secretValuesOf(serviceSchema(service), options),
    ...secretValuesOf(serviceSchema(service), resolved),
    ...(service.secretParts?.(resolved) ?? []),
  ];
  return [...new Set(values.filter((value) => value !== "").flatMap(secretPartsOf))];
}

// The same request with its secrets masked: for --dry-run.
export function renderChatRequest(notification: Notification, options: ChatOptions): unknown {
  const request = buildChatRequest(notification, options);
  const secrets = secretsOfOptions(options);
  return {
    method: request.method ?? "POST",
    url: redactUrl(request.url),
    headers: scrubValue(request.headers, secrets),
    body: scrubValue(request.body, secrets),
  };
}

// Where an entry sends, as its service says it with secrets masked (doctor, --dry-run, logs).
function describeChatTarget(options: ChatOptions): string {
  const resolved = resolveOptions(options);
  return serviceOf(resolved).describe(resolved);
}

// The body on the wire: JSON, or urlencoded fields for a form (doctor's probes too).
export function encodeBody(request: ChatRequest): {
  headers: Record<string, string>;
  body: string;
} {
  if (!request.form) return { headers: request.headers, body: JSON.stringify(request.body) };
  const fields = new URLSearchParams(request.body as Record<string, string>);
  const headers = { ...request.headers, "content-type": "application/x-www-form-urlencoded" };
  return { headers, body: fields.toString() };
}

// The sink: sends the service's request, then lets the service read the answer.
export const chat = defineSink<ChatOptions>({
  type: "chat",
  options: optionsSchema,
  remote: true,
  describeTarget: describeChatTarget,
  check: async (entry, ctx) => {
    const options = entry.options as ChatOptions;
    const url = buildChatRequest(SAMPLE, options).url;
    const service = findService(options.service);
    const shown = describeChatTarget(options);
    const { checkChatEntry } = await import("./probe-check.js");
    if (!service) throw new Error(`unknown chat service ${options.service}`);
    return checkChatEntry(
      entry,
      service,
      { url, shown },
      { env: ctx.deps.env, secrets: ctx.secrets },
    );
  },
  starters: chatServices.map((service) => ({
    choice: service.id,
    secret: service.starter,
    entry: (url: string) => ({ type: "chat", service: service.id, url }),
  })),
  explain: (failure) => findService(failure.service ?? "")?.explain?.(failure),
  render: (notification, options) => renderChatRequest(notification, options),
  async send(notification, options, ctx) {
    const resolved = resolveOptions(options);
    const service = serviceOf(resolved);
    const request = buildChatRequest(
      notification,
      options,
      await keyFor(service, resolved, ctx.deps),
    );
    const response = await postRequest(
      { url: request.url, method: request.method ?? "POST", ...encodeBody(request) },
      { signal: ctx.signal, env: ctx.deps.env, sinkName: ctx.sinkName },
    );
    const { messageId } = service.read(response, ctx.sinkName);
    if (messageId === undefined) return {};
    const watch = service.receipts?.window(notification, resolved);
    return { messageId, ...(watch ? { watch } : {}) };
  },
  // One look at a sent message's receipt (a GET whose URL may carry the token: never logged).
  async poll(sent, options, ctx) {
    const resolved = resolveOptions(options);
    const service = serviceOf(resolved);
    const polling = service.receipts;
    if (!polling) throw new TypeError(`${resolved.service} keeps no receipts`);
    const key = await keyFor(service, resolved, ctx.deps);
    const request = polling.request(sent, resolved);
    const response = await postRequest(
      { url: request.url, method: "GET", headers: request.headers, body: "" },
      { signal: ctx.signal, env: ctx.deps.env, sinkName: ctx.sinkName },
    );
    return polling.read(response, { sinkName: ctx.sinkName, sent, key });
  },
});

// What doctor builds a request from to learn the endpoint (never sent).
const SAMPLE: Notification = {
  id: "doctor",
  event: "Stop",
  failure: false,
  level: "done",
  title: "",
  body: "",
  project: "",
  timestamp: new Date(0).toISOString(),
  raw: {},
};
