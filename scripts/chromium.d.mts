// Types for scripts/chromium.mjs, for test/service/usage-report.test.ts.
export declare const HEADLESS_FLAGS: string[];
export declare function chromiumFlags(profileDir: string): string[];
