// Bundled at test time and run as its own process, the way the hook runs the sound sink: real
// process env and PATH (createDeps), one send, the outcome printed as JSON, then a plain return
// (no process.exit), so the process ends only when nothing it started keeps it alive.
// argv: "wait" | "detached", then the sink options as JSON.
import { createDeps } from "../../src/deps.js";
import { sound } from "../../src/sinks/sound.js";
import { sampleNotification } from "./sample-notification.js";

const [mode = "detached", optionsJson = "{}"] = process.argv.slice(2);
try {
  await sound.send(
    sampleNotification({ level: "done" }),
    sound.options.parse(JSON.parse(optionsJson)),
    {
      signal: AbortSignal.timeout(8_000),
      deps: createDeps(),
      sinkName: "beep",
      wait: mode === "wait",
    },
  );
  process.stdout.write(JSON.stringify({ ok: true }));
} catch (error) {
  const code = (error as { code?: unknown }).code;
  process.stdout.write(JSON.stringify({ ok: false, code }));
}
