// Doctor's findings for a person: ✓ ✗ ! in colour on a terminal, plain words elsewhere.
import type { Style } from "../style.js";
import { withoutFix, type CheckResult, type CheckStatus } from "../check-result.js";

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

// One line per check, the fix indented below it, and a closing summary line. Adjacent checks
// that share a fix get it once, after the last of them; a fix said earlier points back to it.
export function renderResults(results: readonly CheckResult[], style: Style): string {
  const lines: string[] = [];
  const said = new Map<string, string>(); // fix → the first check it was said for
  let group = "";
  results.forEach((result, index) => {
    const fix = fixOf(result);
    const previous = results[index - 1];
    if (previous === undefined || fixOf(previous) !== fix) group = result.check;
    lines.push(
      `${mark(result.status, style)} ${style.bold(result.check)}: ${withoutFix(result.detail, fix)}`,
    );
    const next = results[index + 1];
    if (fix === "" || (next !== undefined && fixOf(next) === fix)) return;
    const first = said.get(fix);
    if (first !== undefined) lines.push(`    fix: as for ${first}`);
    else lines.push(`    ${result.status === "reachable" ? "prove it" : "fix"}: ${fix}`);
    said.set(fix, first ?? group);
  });
  const count = (status: CheckStatus) => results.filter((r) => r.status === status).length;
  lines.push("", `${count("fail")} problem(s), ${count("warn")} warning(s).`);
  return `${lines.join("\n")}\n`;
}

function fixOf(result: CheckResult): string {
  return result.status === "ok" ? "" : result.fix;
}

// --json: the documented fields only, in a stable order.
export function renderJson(results: readonly CheckResult[]): string {
  const rows = results.map(({ check, status, detail, fix }) => ({ check, status, detail, fix }));
  return `${JSON.stringify(rows, null, 2)}\n`;
}
