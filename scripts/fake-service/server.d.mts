// Types of the fake service (server.mjs) for the TypeScript tests.

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

export type FakeOp =
  | ({ op: "session"; sessionId: string } & Record<string, unknown>)
  | ({ op: "computer"; id: string } & Record<string, unknown>)
  | {
      op: "step";
      computerId: string;
      name: string;
      status: string;
      error?: string;
      installSessionId?: string;
    }
  | { op: "revision"; settings: Record<string, unknown>; user?: Record<string, string> }
  | {
      op: "message";
      sessionId: string;
      role: string;
      text: string;
      isError?: boolean;
      isUserVisible?: boolean;
    };

export interface FakeFailure {
  path?: string | RegExp;
  method?: string;
  status?: number;
  body?: unknown;
  retryAfter?: number | string;
  hang?: boolean;
  /** Answer normally, but this late. */
  delayMs?: number;
  /** An HTML page instead of JSON (status default 502), as a proxy in front sends. */
  html?: boolean;
  /** A 200 JSON body of about this many bytes. */
  hugeBytes?: number;
  times?: number;
}

export interface FakeState {
  sessions: Record<string, unknown>[];
  computers: Record<string, unknown>[];
  history: { revision: number; settings: Record<string, unknown> }[];
}

export interface FakeService {
  url: string;
  port: number;
  apiKey: string;
  role: "owner" | "manager" | "member" | "guest";
  state: FakeState;
  requests: FakeRequest[];
  retries?: number;
  listOmitsStatus: boolean;
  /** Sessions by createdAt: "oldest" first (the live service, the default) or "newest" first. */
  listOrder: "oldest" | "newest";
  rateLimit?: { limit: number; windowMs: number } | undefined;
  /** Messages listed "oldest" (default) or "newest" first. */
  messageOrder: "oldest" | "newest";
  /** Messages without `role` (the document's Message has none) or without `createdAt`. */
  messagesOmitRole: boolean;
  messagesOmitCreatedAt: boolean;
  /** Every cursor handed out so far answers `status` (default 410) from now on. */
  expireCursors(status?: number): void;
  /** The bodies of the messages POSTed, in order. */
  sent?: { sessionId: string; body: Record<string, unknown> }[];
  apply(op: FakeOp | FakeOp[]): void;
  fail(rule: FakeFailure): void;
  clearFailures(): void;
  schedule(steps: { afterMs: number; ops: FakeOp | FakeOp[] }[]): void;
  close(): Promise<void>;
}

export interface FakeOptions {
  apiKey?: string;
  role?: FakeService["role"];
  port?: number;
  host?: string;
  now?: () => number;
  listOmitsStatus?: boolean;
  listOrder?: "oldest" | "newest";
  rateLimit?: { limit: number; windowMs: number };
  messageOrder?: "oldest" | "newest";
  messagesOmitRole?: boolean;
  messagesOmitCreatedAt?: boolean;
}

export function startFakeService(options?: FakeOptions): Promise<FakeService>;
