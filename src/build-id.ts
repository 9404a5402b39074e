// The build this code came from: scripts/build.mjs writes one id (a hash of every bundle) into the
// first line of each of dist/cli.cjs, dist/hook.cjs and dist/worker.cjs. A hook hands an event
// only to a worker of the same build (after an upgrade a lingering worker runs the old code).
declare const __hnBuild: string | undefined;

/** The bundles' shared build id; "unbundled" when run from src/ (tests). */
export function buildId(): string {
  return typeof __hnBuild === "string" ? __hnBuild : "unbundled";
}
