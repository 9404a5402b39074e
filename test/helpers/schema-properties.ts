/** A JSON Schema node, as far as these tests read it. */
export interface SchemaNode {
  description?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  anyOf?: SchemaNode[];
}

// Every property of a JSON Schema, nested ones included (`smtp.host`, `sinks.*.type`).
export function schemaProperties(
  node: SchemaNode,
  prefix = "",
): { path: string; name: string; node: SchemaNode }[] {
  const found: { path: string; name: string; node: SchemaNode }[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    found.push({ path: `${prefix}${name}`, name, node: child });
    found.push(...schemaProperties(child, `${prefix}${name}.`));
  }
  if (typeof node.additionalProperties === "object") {
    found.push(...schemaProperties(node.additionalProperties, `${prefix}*.`));
  }
  for (const option of node.anyOf ?? []) found.push(...schemaProperties(option, prefix));
  return found;
}
