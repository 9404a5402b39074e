// `hook-notify doctor`: checks the machine, the config, the sinks and the installed hooks.
import type { CommandModule } from "yargs";
import { configOption } from "./config-option.js";
import { exitWhenDone } from "../exit.js";

interface DoctorArgs {
  json: boolean;
  deep: boolean;
  config: string | undefined;
}

// Prints one line per check with its fix; exit 1 only when something stops every notification.
export const doctorCommand: CommandModule<object, DoctorArgs> = {
  command: "doctor",
  describe: "Check that notifications can work here, and say how to fix what cannot",
  builder: (yargs) =>
    yargs
      .option("json", {
        type: "boolean",
        default: false,
        describe: "Print an array of {check, status, detail, fix}",
      })
      .option("deep", {
        type: "boolean",
        default: false,
        describe:
          "Also read what this config does not use (Do Not Disturb, the presence probes); Linux: send a real test banner and read it back from the notification daemon",
      })
      .option("config", configOption)
      .example("$0 doctor", "check everything; exit 1 when notifications cannot work")
      .example("$0 doctor --json", "the same checks as JSON, for scripts and bug reports")
      .example("$0 doctor --deep", "also show a real banner and check the daemon took it")
      .example("$0 doctor --config ./config.json", "check another config file"),
  handler: async (argv) => {
    const [
      { homedir, release },
      { runDoctor, isBlocked },
      { renderJson, renderResults },
      { createStyle },
    ] = await Promise.all([
      import("node:os"),
      import("../doctor/run-doctor.js"),
      import("../doctor/render.js"),
      import("../style.js"),
    ]);
    // Not createDeps(): its stdin source opens a terminal's stdin, and the process would not end.
    const deps = {
      env: process.env,
      platform: process.platform,
      arch: process.arch,
      osRelease: release(),
      cwd: process.cwd(),
      homedir: homedir(),
      now: Date.now,
    };
    const results = await runDoctor(deps, {
      configPath: argv.config,
      nodeVersion: process.versions.node,
      deep: argv.deep,
    });
    const style = createStyle(process.stdout, deps.env);
    process.stdout.write(argv.json ? renderJson(results) : renderResults(results, style));
    if (isBlocked(results)) exitWhenDone(1);
  },
};
