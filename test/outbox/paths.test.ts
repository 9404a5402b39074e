import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { outboxPaths } from "../../src/outbox/paths.js";

// outboxPaths joins each folder to the root by hand (the hook's fast path computes them on every
// run): it must give exactly what path.join gives, whatever the state folder looks like.
describe("outboxPaths", () => {
  const states = ["/s", "/s/", "/a/./b/../state//", "relative/state", "/"];
  it.each(states)("every folder is join(root, its name) for XDG_STATE_HOME=%j", (state) => {
    const paths = outboxPaths({ env: { XDG_STATE_HOME: state }, homedir: "/h", platform: "linux" });
    const root = join(state, "hook-notify", "outbox");
    expect(paths).toEqual({
      root,
      pending: join(root, "pending"),
      held: join(root, "held"),
      digest: join(root, "digest"),
      failed: join(root, "failed"),
      corrupt: join(root, "corrupt"),
      tmp: join(root, "tmp"),
      events: join(root, "events"),
      lock: join(root, "worker.lock"),
      stamp: join(root, "fast.json"),
    });
  });

  it("from the home folder when no state folder is set", () => {
    const paths = outboxPaths({ env: {}, homedir: "/home/u/", platform: "linux" });
    expect(paths.stamp).toBe(
      join("/home/u", ".local", "state", "hook-notify", "outbox", "fast.json"),
    );
  });
});
