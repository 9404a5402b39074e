// `hook-notify completion [shell]`: a completion script for bash, zsh, fish or PowerShell, chosen by
// the argument (without one, by $SHELL, else bash). Every script asks the binary the same question
// yargs answers: `hook-notify --get-yargs-completions <words>` (cli-yargs.ts keeps yargs' own
// completion command under a name nobody types, so that flag still works).
import type { CommandModule } from "yargs";

export const SHELLS = ["bash", "zsh", "fish", "powershell"] as const;
export type Shell = (typeof SHELLS)[number];

/** Where each shell's script goes, for --help and the script's own first line. */
const INSTALL: Record<Shell, string> = {
  bash: "hook-notify completion bash >> ~/.bashrc",
  zsh: "hook-notify completion zsh >> ~/.zshrc",
  fish: "hook-notify completion fish > ~/.config/fish/completions/hook-notify.fish",
  powershell: "hook-notify completion powershell >> $PROFILE",
};

const SCRIPTS: Record<Shell, readonly string[]> = {
  bash: [
    "_hook_notify_completions() {",
    '  local cur="${COMP_WORDS[COMP_CWORD]}" reply',
    '  mapfile -t reply < <(hook-notify --get-yargs-completions "${COMP_WORDS[@]:0:COMP_CWORD+1}" 2>/dev/null)',
    '  mapfile -t COMPREPLY < <(compgen -W "${reply[*]}" -- "$cur")',
    "}",
    "complete -o bashdefault -o default -F _hook_notify_completions hook-notify",
  ],
  // compdef exists only after compinit: a bare `zsh -f` has not run it.
  zsh: [
    "(( $+functions[compdef] )) || { autoload -Uz compinit && compinit -u; }",
    "_hook_notify_completions() {",
    "  local -a reply",
    '  reply=(${(f)"$(SHELL=zsh hook-notify --get-yargs-completions "${(@)words[1,CURRENT]}" 2>/dev/null)"})',
    "  if (( ${#reply} )); then _describe 'values' reply; else _default; fi",
    "}",
    "compdef _hook_notify_completions hook-notify",
  ],
  fish: [
    "function __hook_notify_complete",
    "    set -l words (commandline -opc)",
    "    hook-notify --get-yargs-completions $words (commandline -ct) 2>/dev/null",
    "end",
    "complete -c hook-notify -f -a '(__hook_notify_complete)'",
  ],
  powershell: [
    "Register-ArgumentCompleter -Native -CommandName hook-notify -ScriptBlock {",
    "  param($wordToComplete, $commandAst, $cursorPosition)",
    "  $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })",
    "  if ($wordToComplete -eq '') { $words += '' }",
    '  hook-notify --get-yargs-completions @words 2>$null | Where-Object { $_ -like "$wordToComplete*" } |',
    "    ForEach-Object { [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_) }",
    "}",
  ],
};

export function completionScript(shell: Shell): string {
  const header = [`# hook-notify completion for ${shell}. Install: ${INSTALL[shell]}`];
  return [...header, ...SCRIPTS[shell], ""].join("\n");
}

// No argument: the login shell's name ($SHELL), bash when it names none of the four.
export function defaultShell(env: NodeJS.ProcessEnv): Shell {
  const name =
    (env["SHELL"] ?? "")
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.exe$/, "") ?? "";
  const found = SHELLS.find(
    (shell) => shell === name || (shell === "powershell" && name === "pwsh"),
  );
  return found ?? "bash";
}

export const completionCommand: CommandModule<object, { shell: Shell | undefined }> = {
  command: "completion [shell]",
  describe: "Print a shell completion script (bash, zsh, fish or PowerShell)",
  builder: (yargs) =>
    yargs
      .positional("shell", {
        choices: SHELLS,
        describe: "The shell to complete in (default: the one $SHELL names, else bash)",
      })
      .example(`$0 ${INSTALL.bash.replace("hook-notify ", "")}`, "bash")
      .example(`$0 ${INSTALL.zsh.replace("hook-notify ", "")}`, "zsh")
      .example(`$0 ${INSTALL.fish.replace("hook-notify ", "")}`, "fish")
      .example(`$0 ${INSTALL.powershell.replace("hook-notify ", "")}`, "PowerShell"),
  handler: (args) => {
    process.stdout.write(completionScript(args.shell ?? defaultShell(process.env)));
  },
};
