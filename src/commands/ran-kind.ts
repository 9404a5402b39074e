// The kind of command this process ran ("doctor", "log", "help", ...), or undefined when it ran
// none to its work (a usage mistake). bin/commands-cache.cjs asks it (cli.ts's ranKind) as the
// process exits: dist/commands.cjs's code cache names the kinds whose runs it holds, and a kind it
// lacks writes it again (bin/CODE-CACHE.md).
let kind: string | undefined;

export function ranAs(name: string | undefined): void {
  kind = name;
}

export function ranKind(): string | undefined {
  return kind;
}
