// The installer abuse corpus: settings files (and file-system situations) built in code, so nothing
// large is committed. Each case says which client's file it is and what install must do with it.

/** "ok": install and uninstall succeed with every invariant; "refuse": a clear error, file untouched. */
export type Outcome = "ok" | "refuse";

/** One settings file's content: text, raw bytes (invalid UTF-8, NUL), or no file at all. */
export interface CorpusCase {
  name: string;
  category: string;
  client: "claude-code" | "droid";
  content: string | Buffer | undefined;
  outcome: Outcome;
  /** Run with --fix-jsonc (rewrite JSONC as strict JSON). */
  fixJsonc?: boolean;
  /** Mode of the file we write (0o600 checks that an existing file keeps its mode). */
  mode?: number;
}

const FOREIGN = { type: "command", command: "notify-send 'agent done'", timeout: 5 };
const PROMPT = { type: "prompt", prompt: "Is the work finished? Answer yes or no." };
const pretty = (value: unknown): string => JSON.stringify(value, null, 2) + "\n";

// hook-notify entries as earlier versions (or other install paths) wrote them.
const OURS_OLD = { type: "command", command: "/old/bin/hook-notify --timeout 60", timeout: 60 };
const OURS_NPX = { type: "command", command: "npx hook-notify --client claude-code" };
const OURS_NOW = {
  type: "command",
  command:
    '"/usr/local/bin/node" "/opt/hook notify/bin/hook-notify.js" --client claude-code --timeout 10',
  timeout: 10,
};

const claude = (
  name: string,
  category: string,
  content: string | Buffer | undefined,
  outcome: Outcome = "ok",
): CorpusCase => ({ name, category, client: "claude-code", content, outcome });
const droid = (
  name: string,
  category: string,
  content: string | Buffer | undefined,
  outcome: Outcome = "ok",
): CorpusCase => ({ name, category, client: "droid", content, outcome });

// Several MB: thousands of foreign hook entries on every event plus thousands of unrelated keys.
function hugeSettings(): string {
  const hooks: Record<string, unknown[]> = {};
  for (const event of ["PreToolUse", "PostToolUse", "Stop", "Notification", "SubagentStop"]) {
    hooks[event] = Array.from({ length: 500 }, (_, i) => ({
      matcher: `Tool${i}|Edit`,
      hooks: [{ type: "command", command: `echo ${event} ${i} ${"x".repeat(200)}`, timeout: 5 }],
    }));
  }
  const env: Record<string, string> = {};
  for (let i = 0; i < 3000; i++) env[`VAR_${i}`] = "v".repeat(300);
  return pretty({ env, hooks });
}

function deeplyNested(levels: number): string {
  return `{"model": "opus", "deep": ${"[".repeat(levels)}${"]".repeat(levels)}}\n`;
}

function nestedArrays(levels: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 1; level < levels; level++) value = [value];
  return value;
}

const JSONC_LINE = '{\n  // my settings\n  "model": "opus",\n  "hooks": {}\n}\n';
const JSONC_BLOCK = '{\n  /* block\n     comment */\n  "model": "opus"\n}\n';
const TRAILING = pretty({ model: "opus" }).replace('"opus"', '"opus",');
const FOREIGN_STOP = pretty({ model: "opus", hooks: { Stop: [{ hooks: [FOREIGN] }] } });

// Invalid UTF-8 inside a string value: decoding it would replace bytes we must keep.
const INVALID_UTF8 = Buffer.concat([
  Buffer.from('{"model": "op'),
  Buffer.from([0xc3, 0x28, 0xff]),
  Buffer.from('us"}\n'),
]);

/** Every case of the corpus; the file-system situations live in the test itself. */
export const CORPUS: readonly CorpusCase[] = [
  // JSONC: refused (both clients reject it), or rewritten as strict JSON with --fix-jsonc.
  claude("line comment", "jsonc", JSONC_LINE, "refuse"),
  claude("block comment", "jsonc", JSONC_BLOCK, "refuse"),
  claude("trailing comma", "jsonc", TRAILING, "refuse"),
  droid("line comment in hooks.json", "jsonc", '{\n  // mine\n  "Stop": []\n}\n', "refuse"),
  droid("trailing comma in hooks.json", "jsonc", '{"Stop": [],}\n', "refuse"),
  { ...claude("comments with --fix-jsonc", "jsonc", JSONC_LINE), fixJsonc: true },
  {
    ...droid(
      "comments and trailing commas with --fix-jsonc",
      "jsonc",
      `{\n  /* x */ "Stop": [{"hooks": [${JSON.stringify(FOREIGN)}],},],\n}\n`,
    ),
    fixJsonc: true,
  },
  // Encodings and line ends.
  claude("UTF-8 BOM", "encoding", "\uFEFF" + pretty({ model: "opus" }), "refuse"),
  droid("UTF-8 BOM in hooks.json", "encoding", "\uFEFF{}", "refuse"),
  { ...claude("UTF-8 BOM with --fix-jsonc", "encoding", "\uFEFF" + FOREIGN_STOP), fixJsonc: true },
  claude("CRLF line ends", "encoding", FOREIGN_STOP.replaceAll("\n", "\r\n")),
  droid(
    "CRLF line ends in hooks.json",
    "encoding",
    pretty({ Stop: [{ hooks: [FOREIGN] }] }).replaceAll("\n", "\r\n"),
  ),
  claude(
    "tab indentation",
    "encoding",
    JSON.stringify({ model: "opus", hooks: { Stop: [{ hooks: [FOREIGN] }] } }, null, "\t"),
  ),
  claude(
    "odd indentation (3 and 7 spaces)",
    "encoding",
    '{\n   "model": "opus",\n       "hooks": {\n   "Stop": [ { "hooks": [ ' +
      JSON.stringify(FOREIGN) +
      " ] } ]\n}\n}",
  ),
  claude(
    "no final newline, one line",
    "encoding",
    JSON.stringify({ model: "opus", hooks: { Stop: [{ hooks: [FOREIGN] }] } }),
  ),
  claude(
    "unicode escapes and non-BMP characters",
    "encoding",
    '{"name": "caf\\u00e9 \\ud83d\\ude80 😀 𝄞", "\\u0068ooks": {}, "emoji😀": ["€", "\\u0000"]}\n',
  ),
  claude("NUL byte", "encoding", '{"model": "op\u0000us"}\n', "refuse"),
  claude("invalid UTF-8", "encoding", INVALID_UTF8, "refuse"),
  // Size and depth.
  claude("huge file (MBs, thousands of foreign entries)", "size", hugeSettings()),
  claude(
    "very long single line",
    "size",
    JSON.stringify({
      model: "opus",
      blob: "y".repeat(1_000_000),
      hooks: { Stop: [{ hooks: [FOREIGN] }] },
    }),
  ),
  claude("deep nesting (5,000 levels) in an unrelated key", "size", deeplyNested(5000), "refuse"),
  // jsonc-parser's formatter breaks at an indent of exactly 200 spaces, which re-indenting this one
  // line reached; a one-line file now gets minified insertions and is never re-indented.
  claude("deep nesting (200 levels) on one line", "size", deeplyNested(200)),
  claude(
    "deep nesting (300 levels) over many lines",
    "size",
    JSON.stringify({ model: "opus", deep: nestedArrays(300) }, null, 2),
  ),
  // Empty and odd top levels.
  claude("missing file", "top-level", undefined),
  claude("empty file", "top-level", ""),
  claude("whitespace only", "top-level", " \n\t\r\n "),
  claude("{}", "top-level", "{}"),
  droid("{} hooks.json", "top-level", "{}"),
  claude("null", "top-level", "null", "refuse"),
  claude("top-level array", "top-level", "[]", "refuse"),
  claude("top-level string", "top-level", '"hooks"', "refuse"),
  droid("wrapped hooks.json", "top-level", pretty({ hooks: { Stop: [] } }), "refuse"),
  // The "hooks" value itself.
  claude('"hooks" is a string', "hooks-value", pretty({ hooks: "none" }), "refuse"),
  claude('"hooks" is an array', "hooks-value", pretty({ hooks: [] }), "refuse"),
  claude('"hooks" is null', "hooks-value", pretty({ hooks: null }), "refuse"),
  claude('"hooks" is a number', "hooks-value", pretty({ hooks: 1 }), "refuse"),
  claude('"hooks" is {}', "hooks-value", pretty({ model: "opus", hooks: {} })),
  claude(
    "an event is an object",
    "hooks-value",
    pretty({ hooks: { Stop: { hooks: [] } } }),
    "refuse",
  ),
  claude(
    "an event array holds a string and a number",
    "hooks-value",
    pretty({ hooks: { Stop: ["x", 1] } }),
    "refuse",
  ),
  claude(
    "non-object items in an event we do not touch",
    "hooks-value",
    pretty({ hooks: { PreToolUse: ["x", null, 3] } }),
  ),
  droid("event array with null in hooks.json", "hooks-value", pretty({ Stop: [null] }), "refuse"),
  // Odd but valid hook shapes.
  claude(
    "groups with and without matcher",
    "shapes",
    pretty({
      hooks: {
        Stop: [{ hooks: [FOREIGN] }, { matcher: "", hooks: [FOREIGN] }],
        PreToolUse: [
          { matcher: "*", hooks: [FOREIGN] },
          { matcher: "Edit|Write(.*)", hooks: [FOREIGN] },
        ],
      },
    }),
  ),
  claude(
    "prompt hooks beside command hooks",
    "shapes",
    pretty({
      hooks: { Stop: [{ hooks: [PROMPT, FOREIGN] }], SubagentStop: [{ hooks: [PROMPT] }] },
    }),
  ),
  claude(
    "foreign entries with unknown keys",
    "shapes",
    pretty({
      hooks: {
        Stop: [
          {
            matcher: "",
            extra: { a: [1, 2] },
            hooks: [{ ...FOREIGN, shell: "bash", async: true, note: "mine" }],
          },
        ],
      },
      unknownTop: { x: 1 },
    }),
  ),
  claude(
    "an empty matcher group and empty event list",
    "shapes",
    pretty({ hooks: { Stop: [], PreToolUse: [{ matcher: "Bash", hooks: [] }] } }),
  ),
  droid(
    "foreign hooks on every event in hooks.json",
    "shapes",
    pretty({
      Notification: [{ hooks: [FOREIGN] }],
      Stop: [{ hooks: [PROMPT] }],
      SubagentStop: [{ matcher: "*", hooks: [FOREIGN] }],
      SessionEnd: [{ hooks: [FOREIGN] }],
      PreToolUse: [{ matcher: "Execute", hooks: [FOREIGN] }],
    }),
  ),
  claude(
    "many unrelated settings",
    "shapes",
    pretty({
      model: "opus",
      permissions: { allow: ["Bash(ls:*)"], deny: [] },
      env: { A: "1" },
      statusLine: { type: "command", command: "x" },
      enabledPlugins: {},
      n: [1.5, -0, 1e-7, true, false, null],
    }),
  ),
  // hook-notify's own entries already there.
  claude(
    "hook-notify at the current path",
    "ours",
    pretty({ hooks: { Stop: [{ hooks: [OURS_NOW] }] } }),
  ),
  claude(
    "hook-notify at an older path and timeout",
    "ours",
    pretty({
      hooks: { Stop: [{ hooks: [FOREIGN, OURS_OLD] }], Notification: [{ hooks: [OURS_NPX] }] },
    }),
  ),
  claude(
    "hook-notify twice on one event",
    "ours",
    pretty({ hooks: { Stop: [{ hooks: [OURS_OLD] }, { hooks: [FOREIGN, OURS_NOW] }] } }),
  ),
  claude(
    "hook-notify on an event install does not use",
    "ours",
    pretty({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [OURS_OLD, FOREIGN] }] } }),
  ),
  claude(
    "hook-notify as a prompt text is not ours",
    "ours",
    pretty({ hooks: { Stop: [{ hooks: [{ type: "prompt", prompt: "run hook-notify" }] }] } }),
  ),
  // Duplicate keys: JSON.parse keeps the last; install must not edit the one the client ignores.
  claude("duplicate top-level key (unrelated)", "duplicates", '{"model": "a", "model": "b"}\n'),
  claude(
    'duplicate "hooks" key',
    "duplicates",
    `{"hooks": {"Stop": []}, "hooks": {"Stop": [{"hooks": [${JSON.stringify(FOREIGN)}]}]}}\n`,
    "refuse",
  ),
  claude(
    "duplicate event inside hooks",
    "duplicates",
    `{"hooks": {"Stop": [], "Stop": [{"hooks": [${JSON.stringify(FOREIGN)}]}]}}\n`,
    "refuse",
  ),
  droid(
    "duplicate event in hooks.json",
    "duplicates",
    `{"Stop": [{"hooks": [${JSON.stringify(FOREIGN)}]}], "Stop": []}\n`,
    "refuse",
  ),
  claude(
    'duplicate "hooks" inside a matcher group',
    "duplicates",
    `{"hooks": {"Stop": [{"hooks": [], "hooks": [${JSON.stringify(FOREIGN)}]}]}}\n`,
    "refuse",
  ),
  // Keys that are special to JavaScript objects.
  claude(
    "__proto__ and constructor keys",
    "js-keys",
    '{"__proto__": {"hooks": {"Stop": "x"}}, "constructor": {"prototype": 1}, "hooks": {"toString": [], "Stop": []}}\n',
  ),
  claude(
    "__proto__ as an event name",
    "js-keys",
    `{"hooks": {"__proto__": [{"hooks": [${JSON.stringify(FOREIGN)}]}]}}\n`,
  ),
  // Numbers JavaScript does not round-trip.
  claude(
    "1e400, -0 and long decimals",
    "numbers",
    '{"big": 1e400, "neg": -0, "pi": 3.14159265358979323846264338327950288, "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 1e1}]}]}}\n',
  ),
  // Invalid JSON.
  claude("invalid JSON (garbage after)", "invalid", '{"model": "opus"} x', "refuse"),
  claude("invalid JSON (unclosed)", "invalid", '{"model": "opus"', "refuse"),
  claude("invalid JSON (single quotes)", "invalid", "{'model': 'opus'}", "refuse"),
  droid("invalid JSON in hooks.json", "invalid", "{ nope", "refuse"),
  // An existing file keeps its mode.
  { ...claude("private file (0600)", "mode", FOREIGN_STOP), mode: 0o600 },
];
