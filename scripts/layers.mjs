// Who may import whom in src/, one line per node of the folder graph (scripts/folder-graph.mjs):
// a top-level folder of src/, or a file at its root. Read from the bottom (core imports nothing)
// to the top (cli.ts). eslint.config.js turns this table into no-restricted-imports rules, and
// test/architecture/folder-cycles.test.ts checks every import of src/ against it, import() too.
// ARCHITECTURE.md explains the layers. Any node may import core/ (but core/ imports nothing).

/** Leaf files at the root of src/: errors, redaction, the Deps seam and small helpers. */
export const BASE = [
  "abort.ts",
  "build-id.ts",
  "check-result.ts",
  "deps.ts",
  "did-you-mean.ts",
  "errors.ts",
  "exit.ts",
  "fnv1a.ts",
  "inert-output.ts",
  "input-source.ts",
  "machine-key.ts",
  "once.ts",
  "own.ts",
  "path-join.ts",
  "process-alive.ts",
  "process-start.ts",
  "read-bounded.ts",
  "redact.ts",
  "secret-values.ts",
  "shown-text.ts",
  "state-dir.ts",
  "style.ts",
  "tmux-pane.ts",
  "version.ts",
  "whole-json.ts",
  "zod.ts",
];

/** node -> the nodes it may import, besides core/ and itself. */
export const LAYERS = {
  core: [],
  ...Object.fromEntries(BASE.map((file) => [file, BASE])),
  http: BASE,
  clients: BASE,
  presence: [...BASE, "dbus"],
  // A D-Bus client for desktop notifications (the wire format, the session bus, Notify).
  dbus: BASE,
  // The agent's place (tmux pane, terminal window, app) and bringing it back on a banner's click.
  focus: [...BASE, "presence"],
  message: [...BASE, "clients"],
  settings: [...BASE, "clients"],
  sinks: [...BASE, "http", "clients", "dbus", "focus"],
  config: [...BASE, "sinks"],
  escalation: [...BASE, "config"],
  // log.ndjson: its one writer (append, rotation, fallback), its line union and its reader.
  journal: [...BASE, "config"],
  // The durable store: it composes nothing and asks no one (presence/: the gate's type only).
  outbox: [...BASE, "config", "journal", "presence"],
  // What happens to a planned delivery: the one send, its receipts, the steps of an outbox entry.
  delivery: [
    ...BASE,
    "clients",
    "config",
    "escalation",
    "http",
    "journal",
    "message",
    "outbox",
    "presence",
    "sinks",
  ],
  // The link between a hook and the worker (link/PROTOCOL.md): the hand-over, the stdin reader,
  // the offer and its stamp, the door, the worker's spawn and lock.
  link: [...BASE, "clients", "config", "outbox", "presence"],
  // The pipeline ends at a plan (delivery/plan.ts); delivery/ carries it out. It reaches the
  // worker only through the ports its caller gives it (run-hook.ts WorkerLink): no link/, no outbox/.
  pipeline: [
    ...BASE,
    "clients",
    "config",
    "delivery",
    "escalation",
    "journal",
    "message",
    "presence",
    "sinks",
  ],
  service: [
    ...BASE,
    "clients",
    "config",
    "delivery",
    "http",
    "journal",
    "link",
    "message",
    "outbox",
    "pipeline",
  ],
  // Typed replies to a waiting agent (src/reply/PROTOCOL.md): tickets, the listener, the pane,
  // and a cloud session's next message (through service/'s client).
  reply: [...BASE, "approve", "config", "journal", "outbox", "service"],
  worker: [
    ...BASE,
    "clients",
    "config",
    "delivery",
    "escalation",
    "http",
    "journal",
    "link",
    "outbox",
    "pipeline",
    "reply",
    "service",
    "sinks",
  ],
  approve: [
    ...BASE,
    "clients",
    "config",
    "delivery",
    "http",
    "journal",
    "message",
    "pipeline",
    "presence",
    "sinks",
  ],
  init: [...BASE, "clients", "settings", "sinks"],
  doctor: [
    ...BASE,
    "approve",
    "clients",
    "config",
    "delivery",
    "focus",
    "http",
    "journal",
    "link",
    "outbox",
    "pipeline",
    "presence",
    "service",
    "settings",
    "sinks",
  ],
  commands: [
    ...BASE,
    "approve",
    "clients",
    "config",
    "delivery",
    "doctor",
    "escalation",
    "http",
    "journal",
    "init",
    "link",
    "message",
    "outbox",
    "pipeline",
    "presence",
    "service",
    "settings",
    "sinks",
    "worker",
  ],
  "cli-yargs.ts": [...BASE, "clients", "commands"],
  "cli.ts": [...BASE, "commands", "cli-yargs.ts"],
  // The hook's fast path: the flags, the paths and the link; nothing that loads zod.
  "fast-hook.ts": [...BASE, "commands", "config", "link", "outbox", "pipeline"],
  // dist/hook.cjs's entry: the fast path's exports as module.exports.
  "hook-entry.ts": [...BASE, "fast-hook.ts"],
};

// True when node `from` may import node `to`.
export function mayImport(from, to) {
  if (from === to) return true;
  if (to === "core") return from !== "core";
  return (LAYERS[from] ?? []).includes(to);
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// no-restricted-imports blocks for eslint.config.js: for each node and each depth of file inside
// it, one regex over the relative specifiers that reach a node it may not import. (The rule does
// not see import(); the test does.)
export function layerRules(maxDepth = 3) {
  const nodes = Object.keys(LAYERS);
  const blocks = [];
  for (const from of nodes) {
    const banned = nodes.filter((to) => !mayImport(from, to));
    if (banned.length === 0) continue;
    const folders = banned.filter((node) => !node.endsWith(".ts")).map(escape);
    const files = banned.filter((node) => node.endsWith(".ts")).map((n) => escape(n.slice(0, -3)));
    const isFile = from.endsWith(".ts");
    for (let depth = isFile ? 0 : 1; depth <= (isFile ? 0 : maxDepth); depth += 1) {
      const up = depth === 0 ? "\\./" : `(\\.\\./){${depth}}`;
      const alternatives = [];
      if (folders.length > 0) alternatives.push(`^${up}(${folders.join("|")})/`);
      if (files.length > 0) alternatives.push(`^${up}(${files.join("|")})\\.js$`);
      const glob = isFile ? `src/${from}` : `src/${from}/${"*/".repeat(depth - 1)}*.ts`;
      const allowed = (LAYERS[from] ?? []).filter((to) => !BASE.includes(to) || from === to);
      const message =
        from === "core"
          ? "core/ imports nothing else of the project (ARCHITECTURE.md)."
          : `${from} may import core/, the root base files${allowed.length > 0 ? ` and ${allowed.join(", ")}` : ""} (ARCHITECTURE.md, scripts/layers.mjs).`;
      blocks.push({
        files: [glob],
        rules: {
          "no-restricted-imports": [
            "error",
            { patterns: [{ regex: alternatives.join("|"), message }] },
          ],
        },
      });
    }
  }
  return blocks;
}
