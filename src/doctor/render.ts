// Doctor's findings for a person: ✓ ✗ ! in colour on a terminal, plain words elsewhere.
import type { Style } from "../style.js";
import type { CheckResult, CheckStatus } from "../check-result.js";

// The mark for a status: the shared style's ✓/✗ (ok/failed), and ! (warn) for warnings.
export function mark(status: CheckStatus, style: Style): string {
  switch (status) {
    case "ok":
      return style.ok(style.okMark);
    case "fail":
      return style.fail(style.failMark);
    case "warn":
      return style.warn(style.isRich ? "!" : "warn");
    case "reachable":
      return style.warn(style.isRich ? "~ reachable only" : "reachable only");
  }
}

// One line per check, the fix indented below it, and a closing summary line.
export function renderResults(results: readonly CheckResult[], style: Style): string {
  const lines: string[] = [];
  for (const result of results) {
    lines.push(`${mark(result.status, style)} ${style.bold(result.check)}: ${result.detail}`);
    if (result.fix && result.status !== "ok") {
      lines.push(`    ${result.status === "reachable" ? "prove it" : "fix"}: ${result.fix}`);
    }
  }
  const count = (status: CheckStatus) => results.filter((r) => r.status === status).length;
  lines.push("", `${count("fail")} problem(s), ${count("warn")} warning(s).`);
  return `${lines.join("\n")}\n`;
}

// --json: the documented fields only, in a stable order.
export function renderJson(results: readonly CheckResult[]): string {
  const rows = results.map(({ check, status, detail, fix }) => ({ check, status, detail, fix }));
  return `${JSON.stringify(rows, null, 2)}\n`;
}
