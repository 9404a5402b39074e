// `install --help`'s examples, from the client registry: no client named in the text.
import { approvingClients, clients } from "../clients/index.js";

type Example = [command: string, description: string];

// The registry's first client, and the file a user-scope install of it changes.
export function dryRunExample(): Example {
  const [first] = clients;
  if (first === undefined) return ["$0 install --dry-run", "show what would change"];
  const file = first.locate("user", { home: "~", projectDir: ".", env: {} }).file;
  return [`$0 install --client ${first.id} --dry-run`, `show what would change in ${file}`];
}

// A client with a local scope has a project scope too: its wrapper is the team's to commit.
export function projectExample(): Example {
  const client = clients.find((adapter) => adapter.scopes.includes("local")) ?? clients[0];
  return [
    `$0 install --client ${client?.id ?? "<client>"} --scope project`,
    "a wrapper the whole team can commit",
  ];
}

export function approveExample(): Example {
  const [client] = approvingClients();
  return [
    `$0 install --client ${client?.id ?? "<client>"} --approve`,
    "approve or deny from the phone",
  ];
}

export function retryExample(): Example {
  const client = clients.find((adapter) => adapter.answersRetry === true);
  return [
    `$0 install --client ${client?.id ?? "<client>"} --approve --retry`,
    "and Let it retry when auto mode blocks an action",
  ];
}
