// Bundles src/ into dist/ with esbuild: dist/hook.cjs (the hook's fast path: hand the event to the
// live worker, src/fast-hook.ts), dist/cli.cjs (the hook pipeline), dist/commands.cjs (the same
// entry with yargs and the other commands: install, uninstall, flush, help), dist/worker.cjs (the outbox worker) and
// dist/mcp.cjs (`hook-notify mcp`'s server, with the MCP SDK) and dist/prompts.cjs (init's
// questions, with the prompt library). The reply listener is dist/worker.cjs started with the
// argument "reply" (src/worker/process-entry.ts): one bundle, as they share nearly all their code;
// dist/worker.cjs loads it (dist/worker-main.cjs) with a V8 code cache.
// Why a bundle: on Node 20 resolving zod's ~40 ES modules costs ~110 ms, a bundled zod/mini ~5 ms.
// Why CommonJS: one CommonJS file skips the ES module loader's resolve/link/instantiate steps,
// about 5 ms of every hook run on Node 20 (no compile cache before Node 22).
// Why a build id: bin/hook-notify.cjs keeps a V8 code cache of dist/hook.cjs and dist/cli.cjs named
// by it (V8 accepts a cache for any source of the same length, so the name must change with the
// content), and a hook hands its event only to a worker of the same build (src/build-id.ts). One id,
// a hash of all the bundles, is written into each.
// Why no dynamic import() in dist/cli.cjs and dist/commands.cjs: they run inside a vm.Script there, where import() fails;
// each import() becomes a require() (which also skips starting the ES module loader).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

// Loaded lazily with import(), only by the commands and sinks that need them; never bundled.
const external = [
  "node-notifier",
  "nodemailer",
  "play-sound",
  "undici",
  "yargs",
  "yargs/*",
  "jsonc-parser",
];

// cli.ts imports ./cli-yargs.js only for non-hook commands: that import loads dist/commands.cjs, so
// the hook's bundle does not carry (and V8 does not parse) the installer and the other commands.
const commandsApart = {
  name: "commands-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/cli-yargs\.js$/ }, (args) =>
      args.importer.endsWith("cli.ts") ? { path: "./commands.cjs", external: true } : undefined,
    );
  },
};

// `hook-notify mcp` loads its server (and with it the MCP SDK, ~370 KB) from dist/mcp.cjs, a
// bundle of its own: the other commands do not carry it.
const mcpApart = {
  name: "mcp-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/mcp-run\.js$/ }, (args) =>
      /[\\/]commands[\\/]mcp\.ts$/.test(args.importer)
        ? { path: "./mcp.cjs", external: true }
        : undefined,
    );
  },
};

// `hook-notify init`'s questions load the prompt library (@inquirer/prompts) from dist/prompts.cjs,
// a bundle of its own: no other command carries it.
const promptsApart = {
  name: "prompts-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/init\/ask\.js$/ }, (args) =>
      /[\\/]commands[\\/]init\.ts$/.test(args.importer)
        ? { path: "./prompts.cjs", external: true }
        : undefined,
    );
  },
};

// yargs is bundled into dist/commands.cjs (issue #41): loaded as its ~30 ES modules it cost every
// command ~50 ms of node's ES module loader, and bundled it shares the commands bundle's V8 code
// cache. Its node shim finds its locales (yargs' messages in the user's language) from
// import.meta.url: there it is the installed yargs' shim, looked up when yargs loads.
const yargsBundled = {
  name: "yargs-bundled",
  setup(build) {
    build.onLoad(
      { filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ },
      async (args) => {
        const text = await readFile(args.path, "utf8");
        const contents = `import { shimUrl } from "yargs-shim-url";\n${text.replaceAll("import.meta.url", "shimUrl")}`;
        return { contents, loader: "js", resolveDir: dirname(args.path) };
      },
    );
    // After a command's handler starts, yargs builds that command's whole help and keeps it, for a
    // showHelp() that may follow (~13 ms of `log` and `doctor`, measuring every word). Ours never
    // shows it: src/cli-yargs.ts's .fail() prints one line instead and nothing calls showHelp()
    // or getHelp(). A yargs whose text differs stops the build rather than keep the cost.
    build.onLoad({ filter: /[\\/]yargs[\\/]build[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      const call = "yargs.getInternalMethods().getUsageInstance().cacheHelpMessage();";
      if (text.split(call).length !== 2)
        throw new Error(`yargs: no single ${call} in ${args.path}`);
      return { contents: text.replace(call, ""), loader: "js", resolveDir: dirname(args.path) };
    });
    build.onResolve({ filter: /^yargs-shim-url$/ }, () => ({
      path: "url",
      namespace: "yargs-shim",
    }));
    // The shim declares its own `require`: this module has the bundle's. Where node's resolution
    // looks first (the package's own node_modules, beside dist/) is looked at with one stat:
    // require.resolve's walk and its read of yargs' package.json cost every command ~4 ms.
    build.onLoad({ filter: /.*/, namespace: "yargs-shim" }, () => ({
      contents: [
        `const { dirname, join } = require("node:path");`,
        `const own = join(__dirname, "..", "node_modules", "yargs", "package.json");`,
        `const found = require("node:fs").existsSync(own) ? own : require.resolve("yargs/package.json");`,
        `const shim = join(dirname(found), "lib", "platform-shims", "esm.mjs");`,
        `export const shimUrl = require("node:url").pathToFileURL(shim).href;`,
      ].join("\n"),
      loader: "js",
    }));
    // The shim's assert (strictEqual, notStrictEqual: yargs' own sanity checks, which pass on every
    // command) loads node:assert (~15 M instructions) only to throw: it decides as assert would
    // (Object.is) and lets the real one throw its own error.
    build.onResolve({ filter: /^assert$/ }, (args) =>
      /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/.test(args.importer)
        ? { path: "assert", namespace: "yargs-assert" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "yargs-assert" }, () => ({
      contents: [
        `const real = () => require("node:assert");`,
        `export function strictEqual(actual, expected, message) {`,
        `  if (!Object.is(actual, expected)) real().strictEqual(actual, expected, message);`,
        `}`,
        `export function notStrictEqual(actual, expected, message) {`,
        `  if (Object.is(actual, expected)) real().notStrictEqual(actual, expected, message);`,
        `}`,
      ].join("\n"),
      loader: "js",
    }));
  },
};

// yargs measures every word of its help (and, after a command ran, of the help it keeps for an
// error) with string-width, which builds Intl.Segmenter and large Unicode regexes as it loads:
// ~40 ms of every command typed. Printable ASCII is as wide as it is long (what string-width
// itself answers for it); anything else asks the real string-width, loaded then.
const asciiWidthFirst = {
  name: "ascii-width-first",
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) =>
      args.namespace === "ascii-width" ? undefined : { path: "width", namespace: "ascii-width" },
    );
    build.onLoad({ filter: /.*/, namespace: "ascii-width" }, () => ({
      contents: [
        `let real;`,
        `export default function stringWidth(text, options) {`,
        `  if (typeof text === "string" && /^[\\x20-\\x7e]*$/.test(text)) return text.length;`,
        `  real ??= require("string-width").default;`,
        `  return real(text, options);`,
        `}`,
      ].join("\n"),
      loader: "js",
      resolveDir: fileURLToPath(new URL("..", import.meta.url)),
    }));
  },
};

// Each sink's doctor check (`check` in its module: an import() of a *-check.js or *-checks.js
// module) runs only from dist/commands.cjs: the hook's bundle leaves that code out.
const checksApart = {
  name: "checks-apart",
  setup(build) {
    build.onResolve({ filter: /-checks?\.js$/ }, (args) =>
      args.kind === "dynamic-import" && /[\\/]src[\\/]sinks[\\/]/.test(args.importer)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

// fs/promises (which loads readline and the watchers), child_process (net, dgram, streams) and tty
// (net, streams) cost a hook run ~8 M, ~17 M and ~8 M instructions to load; most runs call none
// (--dry-run, a hand-off to the worker; isatty only when stdin is a character device). In dist/cli.cjs each becomes a module of functions that load the real one on their
// first call (src/ imports only functions from them, by name; the names come from the real module).
// dist/commands.cjs too, and node:crypto there (~13 M: `log` and `--help` call none of it). In the
// worker's bundle net, dns/promises and crypto too: esbuild puts every module's imports at the
// bundle's top, and a cold worker paid for loading them (crypto ~4 ms, net ~3 ms on Node 20)
// before its first banner, which needs none of them (issue #41).
// A stand-in's source: a function `local` that calls `real` (an expression evaluated at the call,
// which loads the real module), `new` too (net.Socket, crypto.Hash: the real class is constructed).
const callingThrough = (local, real) =>
  `function ${local}(...args) { const real = ${real}; return new.target ? new real(...args) : real(...args); }`;

const lazyBuiltins = (filter) => ({
  name: "lazy-builtins",
  setup(build) {
    build.onResolve({ filter }, (args) =>
      // The stand-in's own require() is the real module.
      args.namespace === "lazy-builtin"
        ? { path: args.path, external: true }
        : { path: args.path, namespace: "lazy-builtin" },
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, async (args) => {
      const real = await import(args.path);
      const names = Object.keys(real).filter((name) => typeof real[name] === "function");
      const lines = names.map((name) => `export ${callingThrough(name, `load().${name}`)}`);
      const load = `const load = () => require(${JSON.stringify(args.path)});`;
      return { contents: [load, ...lines].join("\n"), loader: "js", resolveDir: "." };
    });
  },
});

// zod (its ~75 KB and the schemas built from it) costs a run that validates nothing (a hook run
// with no config file and a well-formed event; a worker replaying its parse memos) nothing: in
// dist/cli.cjs and the worker's bundle src/zod.ts becomes an ES module of stand-ins, one per name
// it exports, and the real one, bundled and wrapped, is evaluated on the first call. An ES
// module, so that esbuild links each importer to the stand-ins themselves: a CommonJS module of
// getters was copied, all 44 of them, into each of the 34 modules that import zod (esbuild's
// __toESM), which cost a cold worker 4.5 M instructions more than the eager zod (issue #41).
// - a function: calls the real one (`new` too);
// - a class (a schema's type, for `instanceof`): no value is an instance while zod is not loaded,
//   so asking does not load it;
// - an object (the registry): its methods, called on the real one.
const lazyZod = {
  name: "lazy-zod",
  setup(build) {
    const real = fileURLToPath(new URL("../src/zod.ts", import.meta.url));
    build.onResolve({ filter: /^(\.\.?\/)+zod\.js$/ }, () => ({
      path: "zod.ts",
      namespace: "lazy-zod",
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy-zod" }, async () => {
      const listed = /export \{([^}]*)\} from "zod\/mini";/.exec(await readFile(real, "utf8"));
      if (!listed) throw new Error('src/zod.ts: no `export { … } from "zod/mini"` list');
      const names = listed[1]
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean);
      const zod = await import("zod/mini");
      // `local`: a name of the stand-in's own (zod exports `enum`, a reserved word).
      const made = (name, local) => {
        const value = zod[name];
        const key = JSON.stringify(name);
        if (typeof value === "function" && /^Zod/.test(name))
          return `const ${local} = { [Symbol.hasInstance]: (value) => real !== undefined && value instanceof real[${key}] };`;
        if (typeof value === "function") return callingThrough(local, `load()[${key}]`);
        if (typeof value !== "object" || value === null)
          throw new Error(`lazy-zod: no stand-in for zod's ${name}`);
        const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(value)).filter(
          (method) => method !== "constructor" && typeof value[method] === "function",
        );
        const calls = methods.map(
          (method) => `${method}: (...args) => load()[${key}].${method}(...args)`,
        );
        return `const ${local} = { ${calls.join(", ")} };`;
      };
      const standIn = (name, index) =>
        `${made(name, `_${String(index)}`)}\nexport { _${String(index)} as ${name} };`;
      const contents = [
        `let real;`,
        // A path relative to src/, so no build machine's folder lands in a bundle or a map.
        `const load = () => (real ??= require("./zod.ts"));`,
        ...names.map(standIn),
      ].join("\n");
      return { contents, loader: "js", resolveDir: dirname(real) };
    });
  },
};

// The hook's fast path needs two facts of the client registry: the client ids (a --client it
// does not know is dropped) and the variables a worker must get from the hook (link/hook-env.ts).
// Bundling src/clients/index.ts for them would put every adapter (install paths, templates,
// detection) into dist/hook.cjs, ~9 KB V8 parses on every hook run (~2 M instructions). The
// registry is evaluated here once instead, and dist/hook.cjs gets those facts as data; esbuild
// refuses the build if the hook imports anything else from the registry.
async function registryFacts() {
  return (await evaluated("src/clients/index.ts")).clients.map((adapter) => ({
    id: adapter.id,
    recognises: { env: adapter.recognises.env ?? [] },
    env: adapter.env,
  }));
}

// The exports of a module of src/, bundled and run here, at build time.
async function evaluated(entry) {
  const built = await build({
    entryPoints: [entry],
    bundle: true,
    format: "cjs",
    platform: "node",
    write: false,
    logLevel: "warning",
    define: { "import.meta.url": '"file:///build-time"' },
  });
  const module = { exports: {} };
  new Function("module", "exports", "require", built.outputFiles[0].text)(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  return module.exports;
}

const registryAsData = (facts) => ({
  name: "registry-as-data",
  setup(build) {
    build.onResolve({ filter: /[\\/]clients[\\/]index\.js$/ }, () => ({
      path: "clients-registry-facts",
      namespace: "registry-facts",
    }));
    build.onLoad({ filter: /.*/, namespace: "registry-facts" }, () => ({
      contents: [
        `export const clients = ${JSON.stringify(facts)};`,
        `export const CLIENT_IDS = clients.map((adapter) => adapter.id);`,
        `export function isClient(value) { return typeof value === "string" && CLIENT_IDS.includes(value); }`,
      ].join("\n"),
      loader: "js",
    }));
  },
});

const BUILD_ID_PLACEHOLDER = "0".repeat(16);
const common = {
  plugins: [commandsApart],
  outdir: "dist",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20.19",
  external,
  minify: process.env.HN_NO_MINIFY !== "1", // HN_NO_MINIFY=1: readable names in --cpu-prof
  // Source maps only on request (HN_SOURCEMAP=1, with HN_NO_MINIFY=1 for profiling): nothing reads
  // them at run time (node is not started with --enable-source-maps), and they were 4 MB of 4.9.
  sourcemap: process.env.HN_SOURCEMAP === "1",
  // src is ES modules and finds its files (assets/, package.json, the worker) from import.meta.url:
  // a getter, as node:url costs a hook run ~4 M instructions to load and most runs never ask.
  define: { "import.meta.url": "__hn.moduleUrl" },
  banner: {
    js: `var __hnBuild = "${BUILD_ID_PLACEHOLDER}";\nvar __hn = { get moduleUrl() { return require("node:url").pathToFileURL(__filename).href; } };`,
  },
  logLevel: "warning",
};

await rm(new URL("../dist", import.meta.url), { recursive: true, force: true });
try {
  await build({
    ...common,
    entryPoints: { cli: "src/cli.ts" },
    plugins: [
      commandsApart,
      checksApart,
      lazyBuiltins(/^node:(fs\/promises|child_process|tty)$/),
      lazyZod,
    ],
    supported: { "dynamic-import": false },
  });
  await build({
    ...common,
    entryPoints: { hook: "src/hook-entry.ts" },
    // hook-entry.ts sets module.exports itself, on purpose.
    logOverride: { "commonjs-variable-in-esm": "silent" },
    plugins: [registryAsData(await registryFacts())],
    // The variables a hook carries to the worker, as data (link/hook-env.ts).
    define: {
      ...common.define,
      __hnHookEnvKeys: JSON.stringify((await evaluated("src/link/hook-env.ts")).HOOK_ENV_KEYS),
    },
    supported: { "dynamic-import": false },
  });
  await build({
    ...common,
    // cli.ts with the commands in it (no commandsApart): a command typed loads this one bundle
    // and its one code cache, not dist/cli.cjs beside it (issue #41).
    entryPoints: { commands: "src/cli.ts" },
    // yargs and jsonc-parser (the clients' settings files: doctor, install) are bundled too; the
    // latter's ES module build (its UMD build requires its parts by computed names).
    alias: { "jsonc-parser": "jsonc-parser/lib/esm/main.js" },
    external: [
      ...external.filter((id) => !id.startsWith("yargs") && id !== "jsonc-parser"),
      "yargs/package.json",
    ],
    plugins: [
      mcpApart,
      promptsApart,
      yargsBundled,
      asciiWidthFirst,
      lazyBuiltins(/^node:(fs\/promises|child_process|tty|crypto)$/),
    ],
    // It runs inside a vm.Script too (bin/hook-notify.cjs loads it with its code cache).
    supported: { "dynamic-import": false },
  });
  await build({
    ...common,
    entryPoints: { "worker-main": "src/worker/process-entry.ts" },
    plugins: [
      commandsApart,
      lazyBuiltins(/^node:(fs\/promises|child_process|tty|net|dns\/promises|crypto)$/),
      lazyZod,
    ],
    // Each of its two programs is evaluated only in the process that runs it.
    supported: { "dynamic-import": false },
  });
  await writeWorkerLoader();
  await build({ ...common, entryPoints: { mcp: "src/commands/mcp-run.ts" } });
  await build({ ...common, entryPoints: { prompts: "src/init/ask.ts" } });
  await onlyBuiltins("hook.cjs");
  await requireOnce("hook.cjs", ["fs", "path"]);
  await stampBuildId([
    "hook.cjs",
    "cli.cjs",
    "commands.cjs",
    "worker-main.cjs",
    "mcp.cjs",
    "prompts.cjs",
  ]);
} catch {
  process.exit(1);
}

// A cold worker's first banner waits for node to compile the worker's bundle (~330 KB): dist/worker.cjs,
// what hooks start (and the worker itself, with "reply"), loads dist/worker-main.cjs with the V8
// code cache bin/hook-notify.cjs keeps for its own bundles. It is written 5 s after a worker that
// had none started (its first round compiled what later ones run; a worker may stay ten minutes
// following its banners), or as it exits, if sooner.
async function writeWorkerLoader() {
  const text = [
    `"use strict";`,
    `// The worker (src/worker/process-entry.ts), bundled in worker-main.cjs, loaded with its V8 code cache.`,
    `const { join } = require("node:path");`,
    `const keepOn = (keep) => {`,
    `  process.once("exit", keep);`,
    `  setTimeout(keep, 5000).unref();`,
    `};`,
    `require(join(__dirname, "..", "bin", "hook-notify.cjs")).requireCached(join(__dirname, "worker-main.cjs"), process.env, { keepOn });`,
    ``,
  ].join("\n");
  await writeFile(new URL("../dist/worker.cjs", import.meta.url), text);
}

// bin/hook-notify.cjs runs dist/hook.cjs with its own require (a require of the bundle's own would
// cost every hook run node:module's createRequire): the bundle may require node's modules only.
async function onlyBuiltins(name) {
  const text = await readFile(new URL(`../dist/${name}`, import.meta.url), "utf8");
  const others = [...text.matchAll(/\brequire\("([^"]*)"\)/g)]
    .map((match) => match[1])
    .filter((id) => !id.startsWith("node:"));
  if (others.length > 0) {
    console.error(`build: dist/${name} may require node's modules only, not ${others.join(", ")}`);
    throw new Error("not only builtins");
  }
}

// The placeholder becomes a hash of all the bundles: same length, so source maps (if any) stay right.
// esbuild gives every module of the bundle its own require("node:fs"): in dist/hook.cjs that is
// ten calls through node's module loader on every hook run, enough to make V8 baseline-compile
// the loader's functions (~0.3 M instructions with the rest of what the fast path calls). One
// require of each, at the top (both are loaded by node's start anyway), and the rest refer to it.
async function requireOnce(name, modules) {
  const file = new URL(`../dist/${name}`, import.meta.url);
  let text = await readFile(file, "utf8");
  const once = [];
  for (const id of modules) {
    const call = `require("node:${id}")`;
    if (!text.includes(call)) continue;
    text = text.replaceAll(call, `__hn_${id}`);
    once.push(`__hn_${id} = ${call}`);
  }
  const banner = text.indexOf("\n", text.indexOf("var __hn = ")) + 1;
  await writeFile(file, `${text.slice(0, banner)}var ${once.join(", ")};\n${text.slice(banner)}`);
}

async function stampBuildId(names) {
  const files = names.map((name) => new URL(`../dist/${name}`, import.meta.url));
  const texts = await Promise.all(files.map((file) => readFile(file, "utf8")));
  const hash = createHash("sha256");
  for (const text of texts) hash.update(text);
  const id = hash.digest("hex").slice(0, 16);
  await Promise.all(
    files.map((file, i) =>
      writeFile(file, texts[i].replace(`"${BUILD_ID_PLACEHOLDER}"`, `"${id}"`)),
    ),
  );
}
