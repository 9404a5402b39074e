// Claude Code's AskUserQuestion as a hook sees it: the PreToolUse input of the tool (2.1.332),
// shared by the phone's and the banner's question tests.

export const QUESTION = "Which database should we use?";
export const OPTIONS = [
  { label: "SQLite", description: "A file, no server" },
  { label: "PostgreSQL", description: "The team's usual" },
  { label: "MySQL", description: "" },
];

// A PreToolUse input as Claude Code 2.1.332 sends it for AskUserQuestion.
export function questionInput(options = OPTIONS, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: "5f0c2c7e-8d51-4d0e-9a4a-0f3b8b0f9e11",
    transcript_path: "/tmp/t.jsonl",
    cwd: "/home/dev/projects/shop-api",
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "AskUserQuestion",
    tool_input: {
      questions: [{ question: QUESTION, header: "Database", options, multiSelect: false }],
      ...extra,
    },
    tool_use_id: "toolu_01",
  });
}
