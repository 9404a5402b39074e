// Completion scripts chosen by the argument, whatever $SHELL says, run through the real shells
// with the built binary answering (each script asks `hook-notify --get-yargs-completions`).
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BIN, runBin, tempHome } from "../helpers/run-bin.js";

const has = (shell: string) => spawnSync(shell, ["-c", "exit 0"]).status === 0;

// A shell's one-line function that runs the built binary as `hook-notify`.
const NODE_BIN = `"${process.execPath}" "${BIN}"`;

function inShell(shell: string, args: string[], script: string): string {
  const home = tempHome();
  const result = spawnSync(shell, [...args, script], {
    encoding: "utf8",
    env: { ...home.env, SHELL: "/bin/bash", HN_COMPLETION: completionOf(shell, home.env) },
    timeout: 20_000,
  });
  expect(result.stderr).toBe("");
  return result.stdout.trim();
}

function completionOf(shell: string, env: Record<string, string | undefined>): string {
  const result = spawnSync(process.execPath, [BIN, "completion", shell], {
    encoding: "utf8",
    env: { ...env, SHELL: "/bin/bash" },
  });
  return result.stdout;
}

describe("shell completion", () => {
  it("the argument picks the shell, not $SHELL; help completion is help", async () => {
    const home = tempHome({ SHELL: "/bin/bash" });
    const marks = {
      bash: "complete -o bashdefault -o default -F _hook_notify_completions hook-notify",
      zsh: "compdef _hook_notify_completions hook-notify",
      fish: "complete -c hook-notify -f",
      powershell: "Register-ArgumentCompleter -Native -CommandName hook-notify",
    };
    for (const [shell, mark] of Object.entries(marks)) {
      const run = await runBin(["completion", shell], { env: home.env });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(mark);
      expect(run.stdout).toContain("--get-yargs-completions");
    }
    const zshByShell = await runBin(["completion"], { env: { ...home.env, SHELL: "/bin/zsh" } });
    expect(zshByShell.stdout).toContain(marks.zsh);
    for (const args of [
      ["help", "completion"],
      ["completion", "--help"],
    ]) {
      const help = await runBin(args, { env: home.env });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("hook-notify completion [shell]");
      expect(help.stdout).toContain('"powershell"');
      expect(help.stdout).not.toContain("compdef");
    }
    const wrong = await runBin(["completion", "tcsh"], { env: home.env });
    expect(wrong.code).toBe(2);
  });

  it.runIf(has("bash"))("bash", () => {
    const complete = (words: string[]) =>
      inShell(
        "bash",
        ["-c"],
        `eval "$HN_COMPLETION"; hook-notify() { ${NODE_BIN} "$@"; }; COMP_WORDS=(${words.join(" ")}); COMP_CWORD=${String(words.length - 1)}; _hook_notify_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
      );
    expect(complete(["hook-notify", "doc"])).toBe("doctor");
    expect(complete(["hook-notify", "install", "--cl"])).toBe("--client");
  });

  // zsh -f: no compinit ran, so no compdef until the script loads it. _describe is replaced by a
  // function that prints what it was given (the real one needs a completion widget running).
  it.runIf(has("zsh"))("zsh, under zsh -f", () => {
    const out = inShell(
      "zsh",
      ["-f", "-c"],
      `eval "$HN_COMPLETION"; print -r -- "registered: $_comps[hook-notify]"; hook-notify() { ${NODE_BIN} "$@"; }; _describe() { print -rl -- "\${(@P)2}"; }; words=(hook-notify doc); CURRENT=2; _hook_notify_completions`,
    );
    expect(out).toContain("registered: _hook_notify_completions");
    expect(out).toMatch(/^doctor:Check that notifications can work/m);
  });

  it.runIf(has("fish"))("fish", () => {
    const out = inShell(
      "fish",
      ["--no-config", "-c"],
      `function hook-notify; ${NODE_BIN} $argv; end; echo $HN_COMPLETION | source; complete -C "hook-notify uninst"`,
    );
    expect(out.split("\n")).toContain("uninstall");
  });
});

// The reader is gone before the command writes a byte (`hook-notify doctor | true`).
function toClosedPipe(args: string[], env: Record<string, string | undefined>) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("close", (code) => {
      resolve({ code, stderr });
    }),
  );
}

describe("a reader that goes away", () => {
  it("doctor, install --dry-run and completion end quietly: no EPIPE stack", async () => {
    const home = tempHome();
    for (const args of [
      ["doctor"],
      ["doctor", "--json"],
      ["install", "--dry-run", "--client", "droid"],
      ["completion", "fish"],
      ["--help"],
    ]) {
      const run = await toClosedPipe(args, home.env);
      expect(run.stderr).not.toContain("EPIPE");
      expect(run.stderr).not.toContain("Unhandled");
      expect(run.code).not.toBeNull();
    }
  });
});
