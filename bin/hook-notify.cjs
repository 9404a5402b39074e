#!/usr/bin/env node
// The program's entry: the real program is bundled in dist/ (npm run build). A .cjs file: node
// starts it without looking for its package scope's "type" (~0.8 M instructions of every hook run
// for a .js file; bin/hook-notify.js is kept for hook entries written before). dist/hook.cjs decides
// first: a hook run that a live worker can take is handed to it there; everything else loads
// dist/cli.cjs. Both are compiled with a V8 code cache, loaded by this file itself (a second file
// of ours costs every hook run ~1 M instructions of node's module loader). CommonJS (see
// bin/package.json), so a hook run never starts the ES module loader.
//
// The code cache (issue #19): on Node 20 compiling dist/cli.cjs costs every hook run ~10 ms that
// the cache saves. The cache sits in the user's cache folder (dist/ may be read-only or shared),
// named by the bundle's build id (a hash of its content: V8 itself accepts a cache for any source
// of the same length), node's version and the CPU. It is written once, after a run (so it holds
// the functions that run compiled), atomically (temp file + rename), and only when there was none
// or V8 rejected it (a new node, other flags). Any problem with it (missing, unwritable, corrupt,
// a FIFO) costs the cache, never the run. dist/commands.cjs's has a header (bin/CODE-CACHE.md).
"use strict";

// node's modules by process.getBuiltinModule: require() compiles node's module loader's require
// path on first use (~0.3 M instructions of every hook run); dist/hook.cjs is given the same.
const builtin = (id) => process.getBuiltinModule(id) ?? require(id);
// The functions every run calls are function expressions in parentheses (kept so by
// prettier-ignore): V8 compiles those with this file, in one parse, where a declaration is
// pre-parsed here and parsed again at its first call (~0.45 M instructions of every hook run).
const fs = builtin("node:fs");
const vm = builtin("node:vm");

// Paths joined by hand: path.join's normalizing walk costs a hook run ~0.3 M instructions, and
// nothing here needs it (a folder from the environment may end in a separator: the OS reads
// "a//b" as "a/b"). The separator is the running system's (node:path is loaded by node's start;
// the tests' simulated platforms change process.platform, not the files).
const SEP = builtin("node:path").sep;
const join = (...parts) => parts.join(SEP);
const dirOf = (file) => file.slice(0, file.lastIndexOf(SEP));
const baseOf = (file) => file.slice(file.lastIndexOf(SEP) + 1);

/** The build id the build script writes into the bundle's first line. */
const BUILD_ID = /^var __hnBuild = "([0-9a-f]{16})";/;
/** No code cache of ours is near this; anything larger is not ours. */
const MAX_CACHE_BYTES = 32 << 20;

// $XDG_CACHE_HOME/hook-notify (~/.cache), ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows.
// prettier-ignore
const cacheDir = (function cacheDir(env, platform, home) {
  if (platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "hook-notify");
  if (platform === "darwin") return join(home, "Library", "Caches", "hook-notify");
  return join(env.XDG_CACHE_HOME || join(home, ".cache"), "hook-notify");
});

// Ours alone: owned by the running user and writable by nobody else. A cache is code that runs: a
// root run that keeps a user's HOME (sudo -E, macOS sudo) must not run what that user put there.
// Windows has no uid (the cache sits in the user's own %LOCALAPPDATA%).
const UID = process.getuid?.();
const ours = (info) => UID === undefined || (info.uid === UID && (info.mode & 0o022) === 0);

// Only a regular file, opened without following a link or blocking, bounded in size, ours, in a
// folder that is ours (not a link).
// prettier-ignore
const readCache = (function readCache(file) {
  const { O_RDONLY, O_NOFOLLOW = 0, O_NONBLOCK = 0 } = fs.constants;
  let fd;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    const info = fs.fstatSync(fd);
    if (!info.isFile() || info.size === 0 || info.size > MAX_CACHE_BYTES) return undefined;
    if (!ours(info) || !ourFolder(dirOf(file))) return undefined;
    const buffer = readUpTo(fd, info.size);
    return buffer.length === info.size ? buffer : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
});

// At most `size` bytes of `fd` from where it stands. readvSync, not readSync: V8 compiles the one
// that runs first, and readSync's argument handling costs every hook run ~0.1 M instructions
// more (dist/hook.cjs reads with readvSync too).
// prettier-ignore
const readUpTo = (function readUpTo(fd, size) {
  const buffer = Buffer.allocUnsafe(size);
  let read = 0;
  for (let n = 1; n > 0 && read < size; read += n)
    n = fs.readvSync(fd, [read === 0 ? buffer : buffer.subarray(read)]);
  return buffer.subarray(0, read);
});

// The bundle's text, with the fs calls the cache reads with (readFileSync's own code is more for
// V8 to compile on every run), as UTF-8 by toString() without arguments (any argument costs
// node's encoding look-up).
// prettier-ignore
const readSource = (function readSource(file) {
  const fd = fs.openSync(file, fs.constants.O_RDONLY);
  try {
    return readUpTo(fd, fs.fstatSync(fd).size).toString();
  } finally {
    fs.closeSync(fd);
  }
});

// prettier-ignore
const ourFolder = (function ourFolder(dir) {
  const info = fs.lstatSync(dir);
  return info.isDirectory() && ours(info);
});

// Temp file beside the target (0600, never over an existing one), then rename: a reader sees a
// whole cache or none. Caches of other builds of the same bundle are removed, and temp files a
// killed run left (named with their time) once they are a minute old. Nothing is created in a
// HOME that belongs to another user (root under sudo -E: ~/.cache would become root's), and
// nothing is written into a folder that is not ours alone.
function writeCache(script, dir, file, home, header) {
  try {
    const owner = UID === undefined ? UID : fs.statSync(home, { throwIfNoEntry: false })?.uid;
    if (owner !== undefined && owner !== UID) return;
    const data = script.createCachedData();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ourFolder(dir)) return;
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
    fs.writeFileSync(temp, header ? Buffer.concat([header, data]) : data, {
      mode: 0o600,
      flag: "wx",
    });
    fs.renameSync(temp, file);
    const prefix = baseOf(file).split("-")[0];
    // This build's caches for other Nodes stay (two Nodes taking turns would each remove the
    // other's, and every run of both would compile from nothing); any other build's go.
    const build = baseOf(file).slice(0, baseOf(file).lastIndexOf(`-${process.version}-`) + 1);
    for (const name of fs.readdirSync(dir)) {
      if (name.startsWith(`${prefix}-`) && name.endsWith(".v8") && !name.startsWith(build))
        fs.rmSync(join(dir, name), { force: true });
      const left = /\.v8\.\d+\.(\d+)\.tmp$/.exec(name);
      if (left && Date.now() - Number(left[1]) > 60_000)
        fs.rmSync(join(dir, name), { force: true });
    }
  } catch {
    // No cache this time: the next run compiles as usual and tries again.
  }
}

// The module's exports, as require(file) would return them. `worthKeeping(exports)`, asked as the
// process exits, says whether this run compiled what the next runs need (V8 puts in the cache the
// functions that ran): dist/hook.cjs keeps one only from a run that handed its event over.
// `require`: what the bundle's require() is; a bundle that needs only node's own modules can
// take the caller's (a require of its own costs node:module's createRequire).
// `keepOn(keep)`: when to write it (once; default: as the process exits).
// `header`: a cache with a header (bin/commands-cache.cjs): `split(data)` gives V8's part and
// what the header said, `next(exports, said)` the header to write after the run (undefined: none).
// prettier-ignore
const requireCached = (function requireCached(file, env = process.env, options = {}) {
  const { worthKeeping = () => true, keepOn = (keep) => process.once("exit", keep) } = options;
  const { header } = options;
  const source = readSource(file);
  const id = BUILD_ID.exec(source.slice(0, 64))?.[1];
  const home = env.HOME || env.USERPROFILE;
  if (id === undefined || env.HOOK_NOTIFY_CODE_CACHE === "0" || !home) return require(file);
  const dir = cacheDir(env, process.platform, home);
  const name = `${baseOf(file)}-${id}-${process.version}-${process.arch}.v8`;
  const cacheFile = join(dir, name);
  const read = readCache(cacheFile);
  const { cachedData, said } = header ? header.split(read) : { cachedData: read };
  const wrapper = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new vm.Script(wrapper, { filename: file, cachedData });
  const module = { exports: {}, id: file, filename: file, loaded: false };
  const fresh = cachedData === undefined || script.cachedDataRejected;
  if (fresh || header) {
    let kept = false;
    keepOn(() => {
      const next = header?.next(module.exports, fresh ? undefined : said);
      if (!kept && (fresh || next) && worthKeeping(module.exports))
        writeCache(script, dir, cacheFile, home, next);
      kept = true;
    });
  }
  const compiled = script.runInThisContext();
  compiled.call(
    module.exports,
    module.exports,
    options.require ?? require("node:module").createRequire(file),
    module,
    file,
    dirOf(file),
  );
  module.loaded = true;
  return module.exports;
});

// A module of bin/ as require() would give it, without node's module loader (~5 M instructions);
// undefined when it cannot be read (the cache goes without its header: the run goes on).
function evaluate(name) {
  try {
    const file = join(dirOf(module.filename), name);
    const wrapper = `(function (module) { ${readSource(file)}\n})`;
    const own = { exports: {} };
    new vm.Script(wrapper, { filename: file }).runInThisContext()(own);
    return own.exports;
  } catch {
    return undefined;
  }
}

function missing(error, name) {
  const code = error && error.code;
  if ((code === "MODULE_NOT_FOUND" || code === "ENOENT") && String(error.message).includes(name)) {
    process.stderr.write(
      "hook-notify: dist/ is missing: run `npm run build` in the hook-notify folder.\n",
    );
    process.exit(1);
  }
  throw error;
}

// A hook run's full path loads dist/cli.cjs; every other command dist/commands.cjs, which carries
// cli.cjs's entry and the commands: one bundle and one code cache (issue #41: compiling them cost
// every command typed 35 ms, loading two caches ~20 ms).
function cli(name) {
  try {
    const header = name === "commands.cjs" ? evaluate("commands-cache.cjs") : undefined;
    return requireCached(join(dirOf(module.path), "dist", name), process.env, { header });
  } catch (error) {
    return missing(error, name);
  }
}

// prettier-ignore
const main = (function main() {
  let hook;
  try {
    // Its cache is kept from a run that handed its event over (it ran the whole fast path). It
    // requires only node's own modules (scripts/build.mjs makes sure): builtin() gives them.
    hook = requireCached(join(dirOf(module.path), "dist", "hook.cjs"), process.env, {
      worthKeeping: (exports) => exports.handedOver?.() === true,
      require: builtin,
    });
  } catch (error) {
    missing(error, "hook.cjs");
  }
  const argv = process.argv.slice(2);
  hook.main(argv, () => cli(hook.isHookInvocation(argv) ? "cli.cjs" : "commands.cjs"));
});

module.exports = { requireCached, cacheDir, main };
if (require.main === module) main();
