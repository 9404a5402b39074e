// Types for scripts/code-sizes.mjs, for test/architecture/code-sizes.test.ts.
export interface FunctionSize {
  name: string;
  line: number;
  lines: number;
}
export interface FileSize {
  file: string;
  lines: number;
}
export interface CodeSizes {
  files: number;
  median: number;
  atMost80: number;
  longFiles: FileSize[];
  longFunctions: (FunctionSize & { file: string })[];
  longishFunctions: (FunctionSize & { file: string })[];
}
export declare const LONG_FILE: number;
export declare const LONG_FUNCTION: number;
export declare const LONGISH_FUNCTION: number;
export declare function lineCount(text: string): number;
export declare function functionsOf(fileName: string, text: string): FunctionSize[];
export declare function codeSizes(dir: string): CodeSizes;
