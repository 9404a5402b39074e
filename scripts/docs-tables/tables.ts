// The tables README.md and docs/ show of the registries: the clients (src/clients/index.ts), the
// sinks (src/sinks/index.ts) and the chat services (src/sinks/chat/services.ts). Pure: each
// returns unformatted Markdown; scripts/docs-tables.mjs lays them out and writes them between
// their markers, and test/docs/tables.test.ts fails when a file disagrees with them.
import { clients } from "../../src/clients/index.js";
import type { ClientAdapter } from "../../src/clients/adapter.js";
import { chatServices } from "../../src/sinks/chat/services.js";
import { sinks } from "../../src/sinks/index.js";

const code = (text: string) => `\`${text}\``;

// Table cells: a pipe would end the cell.
const cell = (text: string) => text.replaceAll("|", "\\|");

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const lines = [`| ${head.join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`];
  return [...lines, ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`)].join("\n");
}

// "Stop → Stop, AfterAgent → Stop": the client's own names first, hook-notify's after the arrow.
function eventsOf(adapter: ClientAdapter): string {
  return Object.entries(adapter.events)
    .map(([own, ours]) => (own === ours ? code(own) : `${code(own)} → ${code(ours)}`))
    .join(", ");
}

/** README: the clients, their --client value and the version each was verified with. */
function clientsShort(): string {
  return table(
    ["client", "`--client`", "verified with"],
    clients.map((adapter) => [adapter.name, code(adapter.id), adapter.verified]),
  );
}

/** docs/clients.md: everything install needs to know of each client. */
function clientsFull(): string {
  return table(
    ["client", "`--client`", "verified with", "scopes", "timeout unit", "`approve`", "events"],
    clients.map((adapter) => [
      adapter.name,
      code(adapter.id),
      adapter.verified,
      adapter.scopes.join(", "),
      adapter.timeoutUnit,
      adapter.answersPermissions === true ? "yes" : "—",
      eventsOf(adapter),
    ]),
  );
}

/** README and docs/sinks.md: each sink type, how it is sent, and what `init --sinks` offers. */
function sinkTable(): string {
  return table(
    ["`type`", "sent", "`init --sinks` offers"],
    sinks.map((sink) => [
      code(sink.type),
      sink.remote ? "through the outbox, with retries" : "at once, on this machine",
      sink.starters.map((starter) => code(starter.choice)).join(", "),
    ]),
  );
}

/** README: the chat services by name and `service` value. */
function servicesShort(): string {
  return table(
    ["service", "`service`", "Apprise form"],
    chatServices.map((service) => [service.name, code(service.id), code(service.apprise.form)]),
  );
}

/** docs/chat-services.md: each service with the variable `init` writes and what goes in it. */
function servicesFull(): string {
  return table(
    ["service", "`service`", "`url` (or its Apprise form)", "`init` writes", "what goes in it"],
    chatServices.map((service) => [
      service.name,
      code(service.id),
      `${code(service.example)} or ${code(service.apprise.form)}`,
      code(`\${${service.starter.name}}`),
      service.starter.what,
    ]),
  );
}

/** Every table by its marker name: `<!-- table:<name>:start -->` … `<!-- table:<name>:end -->`. */
export const TABLES: Readonly<Record<string, () => string>> = {
  "clients-short": clientsShort,
  clients: clientsFull,
  sinks: sinkTable,
  "services-short": servicesShort,
  services: servicesFull,
};

/** Where each table must appear (a file may show more). */
export const REQUIRED: Readonly<Record<string, readonly string[]>> = {
  "README.md": ["clients-short", "sinks", "services-short"],
  "docs/clients.md": ["clients"],
  "docs/sinks.md": ["sinks"],
  "docs/chat-services.md": ["services"],
};

/** The names in package.json's description and keywords must cover: every client and service. */
export const NAMES = {
  clients: clients.map((adapter) => ({ id: adapter.id, name: adapter.name })),
  services: chatServices.map((service) => ({ id: service.id, name: service.name })),
};
