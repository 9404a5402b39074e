// The worker's offer to run whole hook events (issue #19): a FIFO it holds open, and the stamp
// (outbox/fast.json, see link/stamp.ts) that tells hooks the FIFO's name and what the
// worker would do with their event. Only a worker that stays between hooks offers (one that exits
// at once would make every hook's event wait for a new worker), and only where FIFOs exist (not
// Windows: hooks there run the pipeline themselves and hand desktop and sound over the socket).
// A hook whose knock finds no reader takes its event back, so the worker closes the FIFO before
// its last look at events/ (worker-main.ts): a knock that got through was before that look.
import { constants, openSync, unlinkSync, watch } from "node:fs";
import type { Socket } from "node:net";
import { basename, dirname, join } from "node:path";
import type { Deps } from "../deps.js";
import type { OutboxPaths } from "../outbox/paths.js";
import { createStamper } from "./stamper.js";

/** What a run's config taught: the project file it merged, and its secrets. */
export interface RunConfig {
  projectPath?: string | undefined;
  secrets: readonly string[];
}

export interface Offer {
  /** After a knock: rewrite the stamp if the config changed (or a hook asked for another one). */
  refresh(): void;
  /** After a run: the project file it merged adds its variables and secrets to the stamp. */
  learn(config: RunConfig | undefined): void;
  /** Withdraws the offer: the FIFO closes (a later knock finds no reader); the stamp stays. */
  close(): void;
}

// Makes the FIFO, then opens it and writes the stamp (the caller asks fastPathOn first), once
// `after` settles: a cold worker passes its first events' runs, so its first banner waits neither
// for starting `mkfifo` (a fork of the worker) nor for the stamp (the config read twice, a salt
// from node:crypto); issue #41. Node has no call that makes a FIFO, so `mkfifo` does, started
// without waiting for it. Until the stamp names the new FIFO no hook knocks on it (a hook that
// finds no reader meanwhile starts a worker, which wakes this one: PROTOCOL.md); an offer closed
// before the FIFO was made never opens it.
export function openOffer(
  deps: Deps,
  paths: OutboxPaths,
  token: string,
  onKnock: (pids: readonly number[]) => void,
  after: Promise<unknown> = Promise.resolve(),
): Offer {
  const fifo = join(paths.root, `worker.${token}.fifo`);
  let opened: Offer | undefined;
  let closed = false;
  const learnt: (RunConfig | undefined)[] = [];
  const make = () => {
    if (closed) return;
    const { execFile } = process.getBuiltinModule("node:child_process");
    execFile("mkfifo", ["-m", "600", fifo], { timeout: 5_000 }, (error) => {
      if (closed || error) {
        remove(fifo);
        return;
      }
      opened = openMade(deps, paths, fifo, onKnock);
      for (const config of learnt.splice(0)) opened?.learn(config);
    }).on("error", () => undefined);
  };
  void after.then(make, make);
  return {
    refresh: () => opened?.refresh(),
    learn(config) {
      if (opened) opened.learn(config);
      else learnt.push(config);
    },
    close() {
      closed = true;
      opened?.close();
    },
  };
}

// The FIFO made: opened, and the stamp written; undefined when it cannot be opened.
function openMade(
  deps: Deps,
  paths: OutboxPaths,
  fifo: string,
  onKnock: (pids: readonly number[]) => void,
): Offer | undefined {
  let fd: number;
  try {
    // Read and write: the worker is then a reader and a writer, so the FIFO never reads as ended
    // between knocks, and a hook's non-blocking open for writing succeeds while it lives.
    fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
  } catch {
    remove(fifo);
    return undefined;
  }
  const net = process.getBuiltinModule("node:net");
  const socket: Socket = new net.Socket({ fd, readable: true, writable: false });
  const stamper = createStamper(deps, paths, fifo);
  readKnocks(socket, stamper.ask, onKnock);
  // The watch first, then the stamp: an edit made as soon as the stamp is there (a hook, or a
  // person, may read it at once) is seen. Watched after, an edit in between went unseen while the
  // stamp vouched for the old text until a hook found it stale.
  const watcher = watchConfig(stamper.configPath, () => {
    stamper.refresh();
  });
  stamper.write();
  return {
    refresh: stamper.refresh,
    learn: stamper.learn,
    close() {
      // The stamp stays: it says what any worker of this build would do with the config as it
      // is, so a hook that finds no reader on the FIFO still hands its event over and starts a
      // worker (PROTOCOL.md, "cold hand-over") instead of running the pipeline itself.
      watcher?.close();
      socket.destroy(); // closes the FIFO's descriptor: no reader is left
      remove(fifo);
    },
  };
}

// "s<path>\n": a hook found the stamp stale, for the config at <path>. "e<pid>\n": the hook
// <pid> handed an event over ("e" alone: a hook that did not say who it is).
function readKnocks(
  socket: Socket,
  onStale: (configPath: string) => void,
  onKnock: (pids: readonly number[]) => void,
): void {
  socket.setEncoding("utf8");
  socket.on("error", () => undefined);
  socket.on("data", (text: string) => {
    const pids: number[] = [];
    for (const line of text.split("\n")) {
      const wanted = line.slice(1);
      if (line.startsWith("s") && wanted !== "") onStale(wanted);
      else if (/^e[1-9][0-9]{0,9}$/.test(line)) pids.push(Number(wanted));
    }
    onKnock(pids);
  });
}

/** An editor saves in steps (write, rename, chmod): one stamp after the last of them. */
const CONFIG_SETTLE_MS = 30;

// The first hook after a config edit takes the fast path too: the worker writes the stamp again
// as soon as the file changes (its folder is watched: editors replace a file by a rename), not
// only when a hook finds the stamp stale. A folder that cannot be watched leaves that to the
// stale hook's knock, as before. Unref'd: the watch never keeps the worker alive.
function watchConfig(
  configPath: () => string,
  onChange: () => void,
): { close(): void } | undefined {
  const path = configPath();
  let timer: NodeJS.Timeout | undefined;
  try {
    const watcher = watch(dirname(path), { persistent: false }, (_type, name) => {
      // Another config asked for meanwhile (a hook's --config): its own knocks keep it current.
      if (configPath() !== path || (name !== null && name !== basename(path))) return;
      clearTimeout(timer);
      timer = setTimeout(onChange, CONFIG_SETTLE_MS);
      timer.unref();
    });
    watcher.on("error", () => undefined);
    return {
      close() {
        clearTimeout(timer);
        watcher.close();
      },
    };
  } catch {
    return undefined;
  }
}

function remove(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // not there
  }
}
