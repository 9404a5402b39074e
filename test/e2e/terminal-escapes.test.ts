// Terminal escapes from outside, on the built binary: an event's cwd (and so the project name), an
// unknown event name, a project file's keys, a server's 4xx body and invalid JSON all carry ESC,
// OSC 52 (writes the clipboard), OSC 8 (a disguised link), CSI, C1 controls, a carriage return
// and a bidi override. Whatever prints them (hook stderr, --dry-run, --wait, test, doctor, log,
// flush) must print them inert: no control character, escape or bidi control reaches the terminal.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startHttpServer } from "../helpers/http-server.js";
import { fixture, runBin, tempHome } from "../helpers/run-bin.js";

const HOSTILE =
  "\u001b]52;c;aGFja2Vk\u0007\u001b[2J\u009b31m\u202egnp.exe\u001b]8;;http://evil\u001b\\Click\u001b]8;;\u001b\\\r";
/** The same without "/": usable in a folder name. */
const IN_A_NAME = HOSTILE.replaceAll("/", "_");
// Everything a terminal acts on: C0 but newline and tab, DEL, C1, bidi controls and marks.
const ACTIVE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

describe("terminal escapes in outside text", () => {
  it("reach no terminal through hook stderr, --dry-run, --wait, test, doctor, log or flush", async () => {
    const server = await startHttpServer([{ status: 400, body: `bad request ${HOSTILE}` }]);
    const home = tempHome({ HOOK_NOTIFY_DEBUG: "1" });
    home.writeConfig({
      sinks: { ops: { type: "webhook", url: `${server.url}/hook`, timeoutSeconds: 5 } },
    });
    const project = join(home.dir, `shop${IN_A_NAME}`);
    mkdirSync(project);
    writeFileSync(join(project, ".hook-notify.json"), JSON.stringify({ [`key${HOSTILE}`]: 1 }));
    const stop = (session: string) =>
      fixture("claude-code/Stop.json", {
        session_id: session,
        cwd: project,
        last_assistant_message: `done ${HOSTILE}`,
      });
    const unknown = fixture("claude-code/Stop.json", { hook_event_name: `Evil${HOSTILE}` });
    const outputs: { where: string; text: string }[] = [];
    const run = async (label: string, args: string[], input = "", cwd?: string) => {
      const env = cwd ? { ...home.env, HOOK_NOTIFY_CONFIG: undefined } : home.env;
      const result = await runBin(args, { input, env, killAfterMs: 30_000 });
      outputs.push({ where: `${label} stdout`, text: result.stdout });
      outputs.push({ where: `${label} stderr`, text: result.stderr });
      return result;
    };

    await run("hook", ["--timeout", "10"], stop("s1"));
    await run("hook, unknown event", ["--timeout", "10"], unknown);
    await run("hook, invalid JSON", ["--timeout", "10"], `{"hook_event_name": "Stop", ${HOSTILE}`);
    await run("--dry-run", ["--dry-run"], stop("s2"));
    await run("--dry-run, unknown event", ["--dry-run"], unknown);
    await run("--dry-run, invalid JSON", ["--dry-run"], `{"x": "${HOSTILE}`);
    const wait = await run("--wait", ["--wait", "--timeout", "10"], stop("s3"));
    await run("test", ["test"]);
    await run("test --json", ["test", "--json"]);
    await run("doctor", ["doctor"]);
    await run("doctor --json", ["doctor", "--json"]);
    await run("log", ["log"]);
    await run("log --failed", ["log", "--failed"]);
    await run("log --json", ["log", "--json"]);
    await run("flush --retry-failed", ["flush", "--retry-failed"]);
    const broken = home.writeConfig(`{"sinks": ${HOSTILE}`);
    await run("test, invalid config", ["test", "--config", broken]);
    await run("doctor, invalid config", ["doctor", "--config", broken]);

    // The hostile text did reach the output (made visible), so the check below means something.
    expect(wait.stdout + wait.stderr).toContain("]52;c;aGFja2Vk");
    const active = outputs
      .filter((o) => ACTIVE.test(o.text))
      .map((o) => `${o.where}: ${JSON.stringify(o.text.slice(0, 300))}`);
    expect(active).toEqual([]);
  }, 120_000);
});
