// Types for scripts/layers.mjs, for test/architecture/folder-cycles.test.ts.
export declare const BASE: string[];
export declare const LAYERS: Record<string, string[]>;
export declare function mayImport(from: string, to: string): boolean;
export declare function layerRules(maxDepth?: number): object[];
