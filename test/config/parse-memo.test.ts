// The worker's parse memos (src/config/PARSE-MEMO.md): a config read through its memos is the
// config zod reads, to the order of every key; a memo holds no value the person wrote, only what
// the schemas added; any change to the text (or a ${VAR}'s value) is read by zod again; the file
// is the worker's alone (0600), follows the config, and one that is damaged, of another build or
// does not fit is no memo.
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { memoKey, type MemoBook, type ParseMemo } from "../../src/config/parse-memo.js";
import { validateConfig, type Validated } from "../../src/config/validate-config.js";
import { commonEntry } from "../../src/config/entry-common-schema.js";
import { optionShapesOf } from "../../src/config/schema.js";
import { sinks } from "../../src/sinks/index.js";
import type { Sink } from "../../src/sinks/sink.js";

const all = sinks as readonly Sink<unknown>[];
const SECRET = "https://example.com/hook/s3cr3t-T0K3N-abcdefgh";

// An in-memory book that counts what it was asked and given.
function book(): MemoBook & { memos: Map<string, ParseMemo>; hits: number; puts: number } {
  const memos = new Map<string, ParseMemo>();
  const self = {
    memos,
    hits: 0,
    puts: 0,
    keyOf: (site: string, input: unknown) => memoKey("0123456789abcdef", "test", site, input),
    get(key: string) {
      const memo = memos.get(key);
      if (memo) self.hits++;
      return memo;
    },
    put(key: string, memo: ParseMemo) {
      memos.set(key, memo);
      self.puts++;
    },
  };
  return self;
}

// Everything a validation gives, secrets as a set (their order is not a meaning: redact.ts sorts).
const seen = (result: Validated) => ({
  ...result,
  secrets: [...new Set(result.secrets)].sort(),
  text: JSON.stringify(result.value),
});

function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

function startersOf(sink: Sink<unknown>): Record<string, unknown>[] {
  const smtp = { host: "smtp.example.com", port: 587, user: "me", address: "me@example.com" };
  return sink.starters.map(
    (starter) =>
      JSON.parse(JSON.stringify(starter.entry("${SECRET}", smtp))) as Record<string, unknown>,
  );
}

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(true, false, 0, 5, 301, "22:00-07:00", "away", "x", "", [], {}, ["Stop"]),
  fc.constantFrom(SECRET, "${SECRET}", { afterSeconds: 60, to: ["x"] }),
);

// An entry of one sink's type: as init writes it or bare, with some of its keys set anew.
function entryOf(sink: Sink<unknown>) {
  const optionKeys = [...new Set(optionShapesOf(sink).flatMap((shape) => Object.keys(shape)))];
  const key = fc.oneof(fc.constantFrom(...commonEntry.keys), fc.constantFrom(...optionKeys));
  const base = fc.constantFrom<Record<string, unknown>>({}, ...startersOf(sink));
  return fc
    .tuple(base, fc.dictionary(key, value, { maxKeys: 3 }))
    .map(([start, rest]) => ({ ...start, ...rest, type: sink.type }));
}

const topLevel = fc.record(
  {
    dnd: fc.constantFrom("respect", "remote", "ignore", "loud"),
    quietHours: fc.constantFrom("22:00-07:00", "nonsense"),
    maxBodyLength: fc.constantFrom(200, -1),
    approveReplyTopic: fc.constantFrom("hn-reply-topic-0123456789"),
    escalate: fc.constantFrom({ afterSeconds: 60, to: ["a"] }),
  },
  { requiredKeys: [] },
);

describe("a config read through its memos", () => {
  it.each(all.map((sink) => [sink.type, sink] as const))(
    "%s: is what zod reads, to each key's order; the memos hold no secret",
    (_type, sink) => {
      fc.assert(
        fc.property(entryOf(sink), entryOf(sink), topLevel, (a, b, top) => {
          const json = { ...top, sinks: { a, b } };
          const env = { SECRET };
          const plain = seen(validateConfig(structuredClone(json), env));
          const memos = book();
          const first = seen(validateConfig(structuredClone(json), env, memos));
          const again = seen(validateConfig(structuredClone(json), env, memos));
          expect(first).toStrictEqual(plain);
          expect(again).toStrictEqual(plain);
          // Only what zod accepted is kept, and read back the second time.
          const accepted = plain.issues.length === 0;
          if (accepted) expect(memos.hits).toBeGreaterThan(0);
          // No string a memo keeps is a secret; no longer secret is even a part of one.
          const kept = [...memos.memos.values()];
          const strings = kept.flatMap((memo) => stringsOf(memo.shape));
          for (const secret of plain.secrets) expect(strings).not.toContain(secret);
          const text = JSON.stringify(kept);
          for (const secret of plain.secrets.filter((s) => s.length >= 8))
            expect(text).not.toContain(secret);
          expect(text).not.toContain("s3cr3t");
        }),
        { numRuns: 60 },
      );
    },
  );

  it("is read by zod again when a byte of the text or a ${VAR}'s value changes", () => {
    const memos = book();
    const json = { sinks: { hook: { type: "webhook", url: "${HOOK_URL}" } } };
    const good = validateConfig(structuredClone(json), { HOOK_URL: SECRET }, memos);
    expect(good.issues).toEqual([]);
    expect(good.value.sinks["hook"]?.options).toMatchObject({ url: SECRET });
    const puts = memos.puts;
    const bad = validateConfig(structuredClone(json), { HOOK_URL: "not a url" }, memos);
    expect(bad.issues.join("\n")).toMatch(/sinks\.hook\.url/);
    expect(bad.value.sinks["hook"]).toBeUndefined();
    const other = validateConfig(
      { sinks: { hook: { type: "webhook", url: `${SECRET}x` } } },
      {},
      memos,
    );
    expect(other.value.sinks["hook"]?.options).toMatchObject({ url: `${SECRET}x` });
    expect(memos.puts).toBeGreaterThan(puts);
  });

  it("is read by zod when a memo does not fit the piece it is kept for", () => {
    const memos = book();
    const json = { sinks: { desk: { type: "desktop", appName: "mine" } } };
    const plain = validateConfig(structuredClone(json), {});
    validateConfig(structuredClone(json), {}, memos);
    for (const memo of memos.memos.values()) memo.from.push(["no", "such", "place"]);
    expect(seen(validateConfig(structuredClone(json), {}, memos))).toStrictEqual(seen(plain));
  });
});

describe("the worker's memo file", () => {
  async function home() {
    const root = await realpath(await mkdtemp(join(tmpdir(), "hook-notify-memo-")));
    onTestFinished(() => rm(root, { recursive: true, force: true }));
    const config = join(root, "config", "hook-notify", "config.json");
    await mkdir(join(root, "config", "hook-notify"), { recursive: true });
    await mkdir(join(root, "state", "hook-notify"), { recursive: true });
    const env = {
      HOME: root,
      XDG_CONFIG_HOME: join(root, "config"),
      XDG_STATE_HOME: join(root, "state"),
      HOOK_URL: SECRET,
    };
    const memoFile = join(root, "state", "hook-notify", "config-memo.json");
    return { root, config, env, memoFile };
  }

  // A fresh module graph: a new process, as far as the file's reader is concerned.
  async function freshLoad() {
    vi.resetModules();
    return (await import("../../src/config/load-config.js")).loadConfig;
  }

  it("is written by the worker only, 0600, without a value of the config, and read by the next one", async () => {
    const h = await home();
    const text = {
      sinks: {
        desk: { type: "desktop" },
        hook: {
          type: "webhook",
          url: "${HOOK_URL}",
          headers: { Authorization: "Bearer abcdefgh12345678" },
        },
      },
    };
    await writeFile(h.config, JSON.stringify(text));
    const deps = { env: h.env, homedir: h.root, platform: "linux" as const };
    const commandRun = (await freshLoad())(deps, {});
    await expect(stat(h.memoFile)).rejects.toThrow();
    const workerRun = (await freshLoad())({ ...deps, worker: true }, {});
    expect(workerRun.value).toStrictEqual(commandRun.value);
    expect(JSON.stringify(workerRun.value)).toBe(JSON.stringify(commandRun.value));
    const file = await readFile(h.memoFile, "utf8");
    expect((await stat(h.memoFile)).mode & 0o777).toBe(0o600);
    for (const secret of [SECRET, "abcdefgh12345678", "Bearer"]) expect(file).not.toContain(secret);
    const { memos } = JSON.parse(file) as { memos: Record<string, unknown> };
    expect(Object.keys(memos)).toHaveLength(3); // the top level and two entries
    const next = (await freshLoad())({ ...deps, worker: true }, {});
    expect(JSON.stringify(next.value)).toBe(JSON.stringify(commandRun.value));
    expect([...next.secrets].sort()).toEqual([...commandRun.secrets].sort());
    // It follows the config: an entry gone is a memo gone.
    await writeFile(h.config, JSON.stringify({ sinks: { desk: { type: "desktop" } } }));
    (await freshLoad())({ ...deps, worker: true }, {});
    const after = JSON.parse(await readFile(h.memoFile, "utf8")) as { memos: object };
    expect(Object.keys(after.memos)).toHaveLength(2);
  });

  it("is no memo when damaged or of another build: zod reads the config, and a new file is written", async () => {
    const h = await home();
    await writeFile(
      h.config,
      JSON.stringify({ sinks: { desk: { type: "desktop", appName: "x" } } }),
    );
    const deps = { env: h.env, homedir: h.root, platform: "linux" as const, worker: true };
    const plain = (await freshLoad())({ ...deps, worker: false }, {});
    for (const damaged of [
      "{not json",
      JSON.stringify({ version: 1, build: "another", salt: "0123456789abcdef", memos: {} }),
      JSON.stringify({ version: 1, build: "unbundled", salt: "0123456789abcdef", memos: { k: 1 } }),
    ]) {
      await writeFile(h.memoFile, damaged);
      const loaded = (await freshLoad())(deps, {});
      expect(JSON.stringify(loaded.value)).toBe(JSON.stringify(plain.value));
      const file = JSON.parse(await readFile(h.memoFile, "utf8")) as {
        build: string;
        memos: object;
      };
      expect(file.build).toBe("unbundled");
      expect(Object.keys(file.memos).length).toBeGreaterThan(0);
    }
  });
});
