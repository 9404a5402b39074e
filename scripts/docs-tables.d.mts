// Types for scripts/docs-tables.mjs, for test/docs/tables.test.ts.
export declare function docFiles(root: string): string[];
export declare function blocksIn(text: string): { name: string; content: string }[];
export declare function formatTable(markdown: string, file: string): Promise<string>;
export declare function replaceBlocks(text: string, tables: Record<string, string>): string;
export declare function formattedTables(
  tables: Readonly<Record<string, () => string>>,
  file: string,
): Promise<Record<string, string>>;
