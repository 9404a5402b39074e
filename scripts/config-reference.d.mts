// Types for scripts/config-reference.mjs, for test/config/reference.test.ts.
export declare const START: string;
export declare const END: string;
export declare function renderReference(schema: unknown): string;
export declare function formatReference(schema: unknown, readmePath: string): Promise<string>;
export declare function readmeSection(readme: string): string | undefined;
