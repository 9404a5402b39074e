/** The values a template can use, e.g. "{project} · {agent} finished". */
export type TemplateValues = Record<string, string | undefined>;

// Replaces {name} placeholders; unknown names stay as written, missing values become "".
export function fillTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? "") : whole,
  );
}
