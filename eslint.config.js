import js from "@eslint/js";
import vitest from "@vitest/eslint-plugin";
import tseslint from "typescript-eslint";
import { layerRules } from "./scripts/layers.mjs";

// The one module of src/ that ends the process (process.exit, process.exitCode): the edges pass it
// a code; everything else returns a code or throws. Besides it only bin/hook-notify.cjs exits (1,
// when dist/ is missing: no module of src/ is there to ask); scripts/ are build tools.
const EXIT_MODULE = "src/exit.ts";
const exitRule = (property) => ({
  object: "process",
  property,
  message: `Only ${EXIT_MODULE.slice(4)} ends the process (eslint.config.js EXIT_MODULE): return a code or throw.`,
});

export default tseslint.config(
  { ignores: ["dist/", "coverage/", "node_modules/", "test/fixtures/"] },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/switch-exhaustiveness-check": "error",
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      "no-console": "error",
      "no-restricted-properties": ["error", exitRule("exit")],
    },
  },
  // Who may import whom in src/ (scripts/layers.mjs, ARCHITECTURE.md).
  ...layerRules(),
  {
    files: ["src/cli.ts", "src/cli-yargs.ts", "src/commands/**"],
    rules: { "no-console": "off" },
  },
  {
    // In src/ the exit code is set in one place too (tests read what a command set).
    files: ["src/**"],
    rules: { "no-restricted-properties": ["error", exitRule("exit"), exitRule("exitCode")] },
  },
  {
    files: [EXIT_MODULE],
    rules: { "no-restricted-properties": "off" },
  },
  {
    files: ["bin/**", "scripts/**", "*.js", "*.mjs"],
    languageOptions: {
      parserOptions: { projectService: false, project: null },
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        setTimeout: "readonly",
      },
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      "no-console": "off",
      "no-restricted-properties": "off",
    },
  },
  {
    files: ["bin/**"],
    languageOptions: { sourceType: "commonjs", globals: { require: "readonly" } },
    rules: {
      "@typescript-eslint/no-require-imports": "off",
      "no-restricted-properties": ["error", exitRule("exit"), exitRule("exitCode")],
    },
  },
  {
    // Exits 1 when dist/ is missing: src/exit.ts is in dist/, so it cannot be asked.
    files: ["bin/hook-notify.cjs"],
    rules: { "no-restricted-properties": "off" },
  },
  {
    files: ["test/**"],
    plugins: { vitest },
    rules: {
      ...vitest.configs.recommended.rules,
      "no-console": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
);
