// A fake service, a home whose config points at it, and a CommandIo collecting every line:
// what an in-process test of a service command needs.
import type { FakeOptions } from "../../scripts/fake-service/server.mjs";
import type { CommandIo } from "../../src/commands/service-command.js";
import { createDeps } from "../../src/deps.js";
import { startFakeService } from "../helpers/fake-service.js";
import { tempHome } from "../helpers/run-bin.js";

export async function serviceSetup(env: Record<string, string> = {}, options: FakeOptions = {}) {
  const fake = await startFakeService({ apiKey: "service-io-key-0123456789", ...options });
  const home = tempHome({ FACTORY_API_KEY: fake.apiKey, ...env });
  const configPath = home.writeConfig({
    service: { baseUrl: fake.url, apiKey: "${FACTORY_API_KEY}" },
  });
  const out: string[] = [];
  const io: CommandIo = {
    deps: { ...createDeps(), env: home.env, homedir: home.dir },
    out: (line) => out.push(line),
    err: (line) => out.push(line),
  };
  return { fake, home, configPath, io, out };
}
