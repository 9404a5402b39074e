import { describe, expect, it } from "vitest";
import { skippedNotice } from "../helpers/real-programs-notice.js";

// npm test outside CI says which real-program tests it skips and what to install.
describe.runIf(process.platform === "linux")("the notice of skipped real-program tests", () => {
  it("names each missing program and the packages that bring them", () => {
    const notice = skippedNotice({ PATH: "/nonexistent" });
    expect(notice).toContain("missing dbus-daemon, notify-send");
    expect(notice).toContain("sound with real players: missing aplay, play");
    expect(notice).toContain("presence with a real tmux: missing tmux");
    expect(notice).toContain("apt-get install dbus libnotify-bin python3-dbusmock alsa-utils sox");
  });
});
