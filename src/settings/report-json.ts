// `install --json` / `uninstall --json`: the run as one JSON object on stdout (docs/cli.md shows
// the shape). Paths are shown as the text report shows them (~ for the home folder).
import type { FileReport } from "./commit-jobs.js";
import { displayPath } from "./locate.js";

/** The object printed; the same keys on success and failure. */
export interface SettingsJson {
  action: "install" | "uninstall";
  ok: boolean;
  /** True when any file was written. */
  written: boolean;
  dryRun: boolean;
  files: {
    client: string;
    file: string;
    changed: boolean;
    /** One line per hook entry added, updated or removed. */
    summary: string[];
    backup?: string | undefined;
  }[];
  warnings: string[];
  /** One sentence per client whose MCP servers changed (install --mcp, uninstall). */
  mcp: string[];
  error?: { code: string; message: string } | undefined;
}

// The run's result; `error` set when it stopped (nothing was written then).
export function settingsJson(run: {
  action: "install" | "uninstall";
  dryRun: boolean;
  written: boolean;
  files?: readonly FileReport[] | undefined;
  warnings?: readonly string[] | undefined;
  mcp?: readonly string[] | undefined;
  home: string;
  error?: { code: string; message: string } | undefined;
}): string {
  const json: SettingsJson = {
    action: run.action,
    ok: run.error === undefined,
    written: run.written && (run.files ?? []).some((file) => file.changed),
    dryRun: run.dryRun,
    files: (run.files ?? []).map((file) => ({
      client: file.client,
      file: file.shown,
      changed: file.changed,
      summary: file.summary,
      ...(file.backup === undefined ? {} : { backup: displayPath(file.backup, run.home) }),
    })),
    warnings: [...(run.warnings ?? [])],
    mcp: [...(run.mcp ?? [])],
    ...(run.error === undefined ? {} : { error: run.error }),
  };
  return `${JSON.stringify(json)}\n`;
}
