// Runs the local fake of the service for trying `hook-notify watch` and enrichment by hand:
//   node scripts/fake-service.mjs [--port 8787] [--key KEY] [--role owner|manager|member] [--demo]
// --demo scripts changes over the next two minutes (a session goes idle, a computer fails and
// recovers, a control revision appears). Change it yourself any time:
//   curl -X POST localhost:8787/_fake/apply -d '{"op":"session","sessionId":"sess-running","status":"idle"}'
import { parseArgs } from "node:util";
import { startFakeService } from "./fake-service/server.mjs";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    key: { type: "string", default: "fake-service-key" },
    role: { type: "string", default: "owner" },
    demo: { type: "boolean", default: false },
  },
});

const fake = await startFakeService({
  port: Number(values.port),
  apiKey: values.key,
  role: values.role,
});
console.log(`Fake service on ${fake.url} (key ${values.key}, role ${values.role}).`);
console.log(`Config:  "service": { "baseUrl": "${fake.url}", "apiKey": "\${FACTORY_API_KEY}" }`);
console.log(`Then:    FACTORY_API_KEY=${values.key} hook-notify watch --once --digest daily`);
if (values.demo) {
  fake.schedule([
    {
      afterMs: 20_000,
      ops: { op: "session", sessionId: "sess-running", status: "idle", messageCount: 9 },
    },
    {
      afterMs: 30_000,
      ops: [
        { op: "computer", id: "comp-build", status: "error" },
        {
          op: "step",
          computerId: "comp-build",
          name: "install-deps",
          status: "failed",
          error: "npm ci exited with code 1",
        },
      ],
    },
    {
      afterMs: 60_000,
      ops: {
        op: "revision",
        settings: { ...fake.state.history[0].settings, commandDenylist: ["rm -rf /", "curl | sh"] },
      },
    },
    {
      afterMs: 90_000,
      ops: [
        { op: "computer", id: "comp-build", status: "active" },
        { op: "step", computerId: "comp-build", name: "install-deps", status: "completed" },
      ],
    },
  ]);
  console.log(
    "Demo: changes at +20 s (session idle), +30 s (computer error), +60 s (controls), +90 s (recovery).",
  );
}
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => void fake.close().then(() => process.exit(0)));
