import js from "@eslint/js";
import vitest from "@vitest/eslint-plugin";
import tseslint from "typescript-eslint";
import { layerRules } from "./scripts/layers.mjs";

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
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "exit",
          message: "Only cli.ts, fast-hook.ts and commands/run.ts exit.",
        },
      ],
    },
  },
  // Who may import whom in src/ (scripts/layers.mjs, ARCHITECTURE.md).
  ...layerRules(),
  {
    files: ["src/cli.ts", "src/cli-yargs.ts", "src/commands/**"],
    rules: { "no-console": "off", "no-restricted-properties": "off" },
  },
  {
    // The hook's fast path exits 0 once the worker has its event; it prints nothing.
    files: ["src/fast-hook.ts"],
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
    rules: { "@typescript-eslint/no-require-imports": "off" },
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
