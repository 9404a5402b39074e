// The config reference in docs/configuration.md, generated from schema/config.schema.json: a table of the
// top-level keys, one of the keys every sink entry takes, and one per sink type. Prints the Markdown;
// with --write it replaces the page's text between the config-reference markers.
// test/config/reference.test.ts fails when the page and the schema disagree.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const START = "<!-- config-reference:start -->";
export const END = "<!-- config-reference:end -->";

// The reference as Markdown (unformatted; formatReference lays the tables out). Pure.
export function renderReference(schema) {
  const entries = schema.properties.sinks.additionalProperties.anyOf;
  const common = Object.keys(entries[0].properties).filter((key) =>
    entries.every((entry) => key in entry.properties),
  );
  const blocks = [
    "**Top level**",
    table(rowsOf(schema)),
    "**Every sink entry**",
    table(rowsOf(entries[0], "", (key) => common.includes(key))).replace(
      /^\| `type` \| [^|]* \|/m,
      `| \`type\` | one of ${[...new Set(entries.map((entry) => entry.properties.type.const))].map(name).join(", ")} |`,
    ),
  ];
  for (const entry of entries) {
    blocks.push(headingOf(entry), table(rowsOf(entry, "", (key) => !common.includes(key))));
  }
  return `${blocks.join("\n\n")}\n`;
}

// "**`email` sink**"; a sink with a variant per service: "**`chat` sink, `service`: `telegram`**".
function headingOf(entry) {
  const { type, service } = entry.properties;
  const variant = service?.const === undefined ? "" : `, \`service\`: ${name(service.const)}`;
  return `**\`${type.const}\` sink${variant}**`;
}

// One row per property; nested objects are flattened as `smtp.host`, records as `templates.<key>.title`.
function rowsOf(schema, prefix = "", keep = () => true) {
  const rows = [];
  const required = schema.required ?? [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (!keep(key)) continue;
    const path = `${prefix}${key}`;
    rows.push([
      `\`${path}\``,
      typeOf(property),
      defaultOf(property, required.includes(key)),
      escape(property.description ?? ""),
    ]);
    if (property.properties) rows.push(...rowsOf(property, `${path}.`));
    // One object or an array of them (`escalate`): the object's keys, once.
    const object = property.anyOf?.find((branch) => branch.properties);
    if (object) rows.push(...rowsOf(object, `${path}.`));
    const value = property.additionalProperties;
    if (value?.properties) rows.push(...rowsOf(value, `${path}.<${keyName(property)}>.`));
  }
  return rows;
}

function keyName(record) {
  return record.propertyNames?.enum ? "event" : "name";
}

function typeOf(property) {
  const type = describeType(property);
  return isSecret(property) ? `${type}; secret: use \`\${VAR}\`` : type;
}

function isSecret(property) {
  return property.secret === true || property.additionalProperties?.secret === true;
}

function describeType(s) {
  if (s.const !== undefined) return name(s.const);
  if (s.anyOf) return s.anyOf.map(describeType).join(" or ");
  if (s.enum) return `one of ${s.enum.map(name).join(", ")}`;
  if (s.type === "array")
    return `array of ${s.items.enum ? s.items.enum.map(name).join(", ") : describeType(s.items)}`;
  if (s.type === "object" && !s.properties) {
    const keys = s.propertyNames?.enum;
    const value = s.additionalProperties?.anyOf
      ? "sink entry"
      : describeType(s.additionalProperties);
    return `object: ${keys ? keys.map(name).join(", ") : keyName(s)} → ${value}`;
  }
  if (s.format === "uri") return "URL";
  if (s.type === "number" || s.type === "integer") return `${s.type}${rangeOf(s)}`;
  return s.type ?? "any";
}

function rangeOf(s) {
  const { minimum: min, exclusiveMinimum: above, maximum: max } = s;
  if (above !== undefined) return max === undefined ? ` (> ${above})` : ` (> ${above}, ≤ ${max})`;
  if (min === undefined) return max === undefined ? "" : ` (≤ ${max})`;
  return max === undefined ? ` (≥ ${min})` : ` (${min}–${max})`;
}

function defaultOf(property, required) {
  if (property.default !== undefined) return code(property.default);
  return required ? "required" : "";
}

// An enum value or key as the config file spells it, without JSON quotes.
function name(value) {
  return `\`${String(value)}\``;
}

function code(value) {
  return `\`${JSON.stringify(value)}\``;
}

// Table cells: a pipe would end the cell; < and * could turn into markup.
function escape(text) {
  return text.replace(/[|<*]/g, (c) => `\\${c}`);
}

function table(rows) {
  const lines = ["| key | type | default | description |", "| --- | --- | --- | --- |"];
  return [...lines, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
}

// The reference as it appears in the page: laid out by prettier with the project's settings.
export async function formatReference(schema, readmePath) {
  const prettier = await import("prettier");
  const options = (await prettier.resolveConfig(readmePath)) ?? {};
  return prettier.format(renderReference(schema), { ...options, parser: "markdown" });
}

// The page's text between the markers, or undefined when a marker is missing.
export function readmeSection(readme) {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return `${readme.slice(start + START.length, end).trim()}\n`;
}

async function main() {
  const root = new URL("..", import.meta.url);
  const readmePath = fileURLToPath(new URL("docs/configuration.md", root));
  const schema = JSON.parse(readFileSync(new URL("schema/config.schema.json", root), "utf8"));
  const markdown = await formatReference(schema, readmePath);
  if (!process.argv.includes("--write")) {
    process.stdout.write(markdown);
    return;
  }
  const readme = readFileSync(readmePath, "utf8");
  if (readmeSection(readme) === undefined) {
    throw new Error(`docs/configuration.md needs the markers ${START} and ${END}`);
  }
  const before = readme.slice(0, readme.indexOf(START) + START.length);
  const after = readme.slice(readme.indexOf(END));
  writeFileSync(readmePath, `${before}\n\n${markdown}\n${after}`);
  console.log("docs/configuration.md: config reference updated");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
