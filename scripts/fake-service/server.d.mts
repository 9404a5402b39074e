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
  | { op: "step"; computerId: string; name: string; status: string; error?: string }
  | { op: "revision"; settings: Record<string, unknown>; user?: Record<string, string> };

export interface FakeFailure {
  path?: string | RegExp;
  method?: string;
  status?: number;
  body?: unknown;
  retryAfter?: number | string;
  hang?: boolean;
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
  rateLimit?: { limit: number; windowMs: number } | undefined;
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
  rateLimit?: { limit: number; windowMs: number };
}

export function startFakeService(options?: FakeOptions): Promise<FakeService>;
