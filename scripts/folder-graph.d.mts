// Types for scripts/folder-graph.mjs, for test/architecture/folder-cycles.test.ts.
export interface FileImport {
  from: string;
  to: string;
}
export interface FolderGraph {
  edges: Map<string, string[]>;
  cycles: string[][];
}
export declare function listSources(dir: string): string[];
export declare function importsOf(source: string): string[];
export declare function nodeOf(file: string): string;
export declare function fileImports(dir: string, files?: string[]): FileImport[];
export declare function folderEdges(imports: FileImport[]): Map<string, string[]>;
export declare function cyclesOf(edges: Map<string, string[]>): string[][];
export declare function valueCycles(dir: string, files?: string[]): string[][];
export declare function folderGraph(dir: string): FolderGraph;
export declare function formatGraph(graph: FolderGraph): string;
