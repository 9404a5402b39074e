// Shell completion for fish (bash and zsh come from yargs' own `completion` command). It asks the
// binary the same question yargs' scripts do: `hook-notify --get-yargs-completions <words>`.

// The fish script: `hook-notify completion fish > ~/.config/fish/completions/hook-notify.fish`.
export function fishCompletion(): string {
  return [
    "# hook-notify completion for fish, written by `hook-notify completion fish`.",
    "function __hook_notify_complete",
    "    set -l words (commandline -opc)",
    "    hook-notify --get-yargs-completions $words (commandline -ct) 2>/dev/null",
    "end",
    "complete -c hook-notify -f -a '(__hook_notify_complete)'",
    "",
  ].join("\n");
}
