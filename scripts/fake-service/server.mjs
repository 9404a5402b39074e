// A local fake of the service's HTTP API, built from research/service-api.md: every endpoint
// hook-notify uses (and the rest of the sessions and computers API), Bearer keys, roles, cursor
// pagination, the documented errors and limits, plus scripted changes and failures.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { clearTimeout, setTimeout } from "node:timers";
import { answerAnalytics } from "./analytics.mjs";
import { applyOp, demoState, session } from "./state.mjs";

const ANALYTICS = /^\/api\/v1\/analytics\/(tokens|tools|activity|productivity|users)$/;

export async function startFakeService(options = {}) {
  const apiKey = options.apiKey ?? "fake-service-key";
  const now = options.now ?? Date.now;
  const state = options.state ?? demoState(now());
  const fake = {
    apiKey,
    role: options.role ?? "owner",
    state,
    requests: [],
    failures: [],
    listOmitsStatus: options.listOmitsStatus ?? false,
    // The live service lists sessions oldest first (issue 31); "newest" tries the other order.
    listOrder: options.listOrder ?? "oldest",
    rateLimit: options.rateLimit, // {limit, windowMs}
    // What the document leaves open, each switchable: messages listed "oldest" (default) or
    // "newest" first, without the role field the document's Message does not have, without
    // createdAt (which fields are required is not shown).
    messageOrder: options.messageOrder ?? "oldest",
    messagesOmitRole: options.messagesOmitRole ?? false,
    messagesOmitCreatedAt: options.messagesOmitCreatedAt ?? false,
    // Cursors carry an epoch; expireCursors(status) makes every cursor handed out so far answer
    // `status` (410 by default): how long a cursor lives is not documented.
    cursorEpoch: 0,
    staleCursorStatus: 410,
    expireCursors: (status = 410) => {
      fake.cursorEpoch += 1;
      fake.staleCursorStatus = status;
    },
    hits: [],
    timers: new Set(),
    apply: (op) => {
      for (const one of Array.isArray(op) ? op : [op]) applyOp(state, one, now());
    },
    // Next matching requests answer this way: {path?: RegExp|string, method?, status?, body?,
    // retryAfter?, hang?, delayMs?, html? (an HTML page, as a proxy sends), hugeBytes? (a 200 body
    // that large), times? (default 1; Infinity for always)}.
    fail: (rule) => fake.failures.push({ times: 1, ...rule }),
    clearFailures: () => fake.failures.splice(0),
    // Applies each step's ops `afterMs` from now: [{afterMs, ops: op | op[]}].
    schedule: (steps) => {
      for (const s of steps) {
        const timer = setTimeout(() => {
          fake.timers.delete(timer);
          fake.apply(s.ops);
        }, s.afterMs);
        fake.timers.add(timer);
      }
    },
  };
  const sockets = new Set();
  const server = createServer((req, res) => {
    readBody(req).then((body) => handle(fake, req, res, body, now));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) =>
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve),
  );
  const { port } = server.address();
  fake.port = port;
  fake.url = `http://${options.host ?? "127.0.0.1"}:${port}`;
  fake.close = () =>
    new Promise((resolve) => {
      for (const timer of fake.timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return fake;
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function handle(fake, req, res, text, now) {
  const url = new URL(req.url ?? "/", "http://fake");
  const query = Object.fromEntries(url.searchParams);
  const method = req.method ?? "GET";
  const record = {
    method,
    path: url.pathname,
    query,
    headers: req.headers,
    body: text,
    at: Date.now(),
  };
  if (url.pathname.startsWith("/_fake/")) return control(fake, url.pathname, method, text, res);
  fake.requests.push(record);
  const rule = takeFailure(fake, method, url.pathname);
  if (rule?.hang) return; // never answers; close() destroys the socket
  if (rule?.delayMs) {
    const timer = setTimeout(() => {
      fake.timers.delete(timer);
      answer(fake, req, res, text, now, url, query, method, { ...rule, delayMs: 0, slow: true });
    }, rule.delayMs);
    fake.timers.add(timer);
    return;
  }
  answer(fake, req, res, text, now, url, query, method, rule);
}

function answer(fake, req, res, text, now, url, query, method, rule) {
  if (rule?.html) return sendHtml(res, rule.status ?? 502);
  if (rule?.hugeBytes) return sendHuge(res, rule.hugeBytes);
  if (rule && (rule.status !== undefined || !rule.slow))
    return send(
      res,
      rule.status ?? 500,
      rule.body ?? problem(rule.status ?? 500, "Scripted failure"),
      rule.retryAfter,
    );
  if (req.headers.authorization !== `Bearer ${fake.apiKey}`)
    return send(res, 401, problem(401, "API key missing or invalid."));
  if (isRateLimited(fake, now())) return send(res, 429, problem(429, "Too many requests."), 1);
  let body;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    return send(res, 400, problem(400, "Body is not JSON."));
  }
  const reply = route(fake, method, url.pathname, query, body, now);
  send(
    res,
    reply.status,
    reply.status >= 400 ? problem(reply.status, reply.body.detail, reply.body.title) : reply.body,
  );
}

function takeFailure(fake, method, path) {
  const at = fake.failures.findIndex(
    (r) =>
      (r.method === undefined || r.method === method) &&
      (r.path === undefined ||
        (r.path instanceof RegExp ? r.path.test(path) : path.startsWith(r.path))),
  );
  if (at < 0) return undefined;
  const rule = fake.failures[at];
  rule.times -= 1;
  if (rule.times <= 0) fake.failures.splice(at, 1);
  return rule;
}

function isRateLimited(fake, at) {
  if (!fake.rateLimit) return false;
  fake.hits = fake.hits.filter((t) => t > at - fake.rateLimit.windowMs);
  fake.hits.push(at);
  return fake.hits.length > fake.rateLimit.limit;
}

function route(fake, method, path, query, body, now) {
  const match = ANALYTICS.exec(path);
  if (match && method === "GET") {
    if (fake.role !== "owner" && fake.role !== "manager")
      return err(403, "Analytics needs the Manager or Owner role.", "Forbidden");
    return answerAnalytics(match[1], query, new Date(now()).toISOString().slice(0, 10));
  }
  const parts = path.split("/").filter(Boolean).slice(2); // after api/v0
  if (!path.startsWith("/api/v0/")) return err(404, "No such endpoint.");
  const key = `${method} ${parts.map((p, i) => (i % 2 === 1 ? ":" : p)).join("/")}`;
  const { state } = fake;
  switch (key) {
    case "GET organization/:/history":
      if (parts[1] !== "enterprise-controls") break;
      return listPage(query, state.history, (c) => String(c.revision), "changes");
    case "GET sessions": {
      const mine = state.sessions.filter(
        (s) => !query.computerId || s.computerId === query.computerId,
      );
      const sign = fake.listOrder === "newest" ? -1 : 1;
      const sorted = mine.sort((a, b) => sign * (a.createdAt - b.createdAt));
      const shown = fake.listOmitsStatus ? sorted.map((s) => omit(s, "status")) : sorted;
      return listPage(query, shown, (s) => s.sessionId, "sessions", fake);
    }
    case "POST sessions": {
      if (typeof body?.computerId !== "string") return err(400, "computerId is required.");
      if (
        body.cwd !== undefined &&
        (typeof body.cwd !== "string" || body.cwd.length < 1 || body.cwd.length > 4096)
      )
        return err(400, "cwd must be 1-4096 characters.");
      const created = session(`sess-${randomUUID().slice(0, 8)}`, "idle", undefined, 0, now());
      Object.assign(
        created,
        { computerId: body.computerId },
        body.sessionSettings
          ? { sessionSettings: { ...created.sessionSettings, ...body.sessionSettings } }
          : {},
      );
      state.sessions.push(created);
      return { status: 201, body: created };
    }
    case "GET sessions/:":
    case "PATCH sessions/:": {
      const found = state.sessions.find((s) => s.sessionId === parts[1]);
      if (!found) return err(404, "Session not found.");
      if (method === "PATCH" && body?.sessionSettings) {
        found.sessionSettings = { ...found.sessionSettings, ...body.sessionSettings };
        found.updatedAt = now();
      }
      return { status: 200, body: found };
    }
    case "GET sessions/:/messages":
    case "POST sessions/:/messages":
      return messages(fake, method, parts[1], query, body, now);
    case "GET computers": {
      const all = state.computers.filter((c) => !query.hostId || c.hostId === query.hostId);
      const steps = query.includeProvisioningSteps === "true";
      return {
        status: 200,
        body: {
          computers: all.map(({ provisioningSteps, ...c }) =>
            steps ? { ...c, provisioningSteps } : c,
          ),
        },
      };
    }
    case "POST computers":
      return createComputer(state, body, now);
    case "PATCH computers/:": {
      const found = state.computers.find((c) => c.id === parts[1]);
      if (!found) return err(404, "Computer not found.");
      for (const field of ["name", "remoteUser"]) {
        if (body?.[field] !== undefined && !validName(body[field]))
          return err(400, `${field} must be 1-63 characters.`);
      }
      Object.assign(found, pick(body ?? {}, ["name", "hostId", "remoteUser"]));
      return { status: 200, body: found };
    }
    case "POST computers/:/install-deps": {
      const found = state.computers.find((c) => c.id === parts[1]);
      if (!found) return err(404, "Computer not found.");
      // The resulting status is not documented: the fake goes back to provisioning.
      found.status = "provisioning";
      found.provisioningSteps = (found.provisioningSteps ?? []).map((s) =>
        s.name === "install-deps"
          ? { id: s.id, name: s.name, status: "running", startedAt: now() }
          : s,
      );
      fake.retries = (fake.retries ?? 0) + 1;
      return { status: 202, body: found };
    }
  }
  return err(404, "No such endpoint.");
}

function messages(fake, method, sessionId, query, body, now) {
  const found = fake.state.sessions.find((s) => s.sessionId === sessionId);
  if (!found) return err(404, "Session not found.");
  const list = fake.state.messages.get(sessionId) ?? [];
  fake.state.messages.set(sessionId, list);
  if (method === "GET") {
    if (query.role && !["user", "assistant", "tool"].includes(query.role))
      return err(400, "Invalid role.");
    const ofRole = query.role ? list.filter((m) => m.role === query.role) : list;
    const ordered = fake.messageOrder === "newest" ? [...ofRole].reverse() : ofRole;
    const shown = ordered.map((m) => {
      const { role, createdAt, updatedAt, ...rest } = m;
      return {
        ...rest,
        ...(fake.messagesOmitRole ? {} : { role }),
        ...(fake.messagesOmitCreatedAt ? {} : { createdAt, updatedAt }),
      };
    });
    return listPage(query, shown, (m) => m.id, "messages", fake);
  }
  if (typeof body?.text !== "string") return err(400, "text is required.");
  const message = {
    id: `msg-${randomUUID().slice(0, 8)}`,
    role: "user",
    content: [{ id: "c1", text: body.text }],
    createdAt: Math.max(now(), (list.at(-1)?.createdAt ?? 0) + 1),
    updatedAt: now(),
    isUserVisible: true,
    ...(list.length > 0 ? { parentId: list.at(-1).id } : {}),
    ...(body.files ? { files: body.files.length } : {}),
  };
  fake.sent = [...(fake.sent ?? []), { sessionId, body }];
  list.push(message);
  Object.assign(found, {
    status: "running",
    messageCount: found.messageCount + 1,
    updatedAt: now(),
  });
  return { status: 200, body: { messageId: message.id, status: found.status } };
}

function createComputer(state, body, now) {
  if (!validName(body?.name)) return err(400, "name is required, 1-63 characters.");
  if (body.provider !== undefined && !["byom", "hosted"].includes(body.provider))
    return err(400, "provider must be byom or hosted.");
  if (body.remoteUser !== undefined && !validName(body.remoteUser))
    return err(400, "remoteUser must be 1-63 characters.");
  if (
    body.repos !== undefined &&
    (!Array.isArray(body.repos) ||
      body.repos.length > 20 ||
      body.repos.some((r) => typeof r !== "string" || r.length > 2048))
  )
    return err(400, "repos: at most 20 URIs of at most 2048 characters.");
  if (
    body.serviceAccountId !== undefined &&
    (typeof body.serviceAccountId !== "string" || body.serviceAccountId.length < 1)
  )
    return err(400, "serviceAccountId must not be empty.");
  const computer = {
    id: `comp-${randomUUID().slice(0, 8)}`,
    name: body.name,
    providerType: body.provider ?? "hosted",
    createdAt: now(),
    status: "provisioning",
    provisioningSteps: [],
    ...pick(body, ["hostId", "remoteUser"]),
  };
  state.computers.push(computer);
  return { status: 201, body: computer };
}

// limit 1-100 (default 20) and an opaque cursor: the id of the last item served.
function listPage(query, items, idOf, key, fake) {
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    return err(400, "limit must be between 1 and 100.");
  const epoch = fake?.cursorEpoch ?? 0;
  const cursorOf = (item) => (epoch === 0 ? idOf(item) : `e${String(epoch)}.${idOf(item)}`);
  let start = 0;
  if (query.cursor !== undefined) {
    const at = items.findIndex((item) => cursorOf(item) === query.cursor);
    if (at < 0 && fake && epoch > 0 && !query.cursor.startsWith(`e${String(epoch)}.`))
      return err(fake.staleCursorStatus, "This cursor has expired.", "Gone");
    if (at < 0) return err(400, "Invalid cursor.");
    start = at + 1;
  }
  const page = items.slice(start, start + limit);
  const hasMore = start + limit < items.length;
  return {
    status: 200,
    body: {
      [key]: page,
      pagination: { hasMore, ...(hasMore ? { nextCursor: cursorOf(page.at(-1)) } : {}) },
    },
  };
}

function control(fake, path, method, text, res) {
  try {
    if (path === "/_fake/apply" && method === "POST") fake.apply(JSON.parse(text));
    else if (path === "/_fake/fail" && method === "POST") fake.fail(JSON.parse(text));
    else if (path === "/_fake/role" && method === "POST") fake.role = JSON.parse(text).role;
    else if (path === "/_fake/state" && method === "GET")
      return send(res, 200, { ...fake.state, messages: undefined, retries: fake.retries ?? 0 });
    else if (path === "/_fake/requests" && method === "GET")
      return send(
        res,
        200,
        fake.requests.map((r) => omit(r, "headers")),
      );
    else return send(res, 404, problem(404, "No such control endpoint."));
    send(res, 200, { ok: true });
  } catch (error) {
    send(res, 400, problem(400, String(error.message)));
  }
}

function omit(object, key) {
  return Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));
}

function validName(value) {
  return typeof value === "string" && value.length >= 1 && value.length <= 63;
}

function pick(object, keys) {
  return Object.fromEntries(keys.filter((k) => object[k] !== undefined).map((k) => [k, object[k]]));
}

function err(status, detail, title) {
  return { status, body: { detail, title } };
}

function problem(status, detail, title) {
  const titles = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    429: "Too Many Requests",
    500: "Internal Server Error",
  };
  return {
    title: title ?? titles[status] ?? "Error",
    detail,
    status,
    requestId: `req-${randomUUID().slice(0, 12)}`,
  };
}

function sendHtml(res, status) {
  res.writeHead(status, { "content-type": "text/html" });
  res.end("<html><head><title>502 Bad Gateway</title></head><body>Bad Gateway</body></html>");
}

// A 200 JSON body of `bytes` bytes (a list with one huge title), sent in chunks.
function sendHuge(res, bytes) {
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"sessions":[{"sessionId":"s","title":"');
  const chunk = "x".repeat(64 * 1024);
  for (let sent = 0; sent < bytes; sent += chunk.length) res.write(chunk);
  res.end('"}]}');
}

function send(res, status, body, retryAfter) {
  const headers = { "content-type": "application/json" };
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
}
