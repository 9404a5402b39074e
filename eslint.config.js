import js from "@eslint/js";
import vitest from "@vitest/eslint-plugin";
import tseslint from "typescript-eslint";
import { layerRules } from "./scripts/layers.mjs";

// The files that may end the process (process.exit), and nothing else: the hook's fast path,
// the yargs entry's usage failure, the hook run's safety net and answer, approve's answer, the
// exit codes' EPIPE and Ctrl-C handlers, install's Ctrl-C. Everything else returns or throws.
const EXIT_FILES = [
  "src/fast-hook.ts",
  "src/cli-yargs.ts",
  "src/commands/run.ts",
  "src/commands/approve.ts",
  "src/commands/exit-codes.ts",
  "src/commands/install.ts",
];

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
          message: `Only ${EXIT_FILES.map((file) => file.slice(4)).join(", ")} exit (eslint.config.js EXIT_FILES): return or throw.`,
        },
      ],
    },
  },
  // Who may import whom in src/ (scripts/layers.mjs, ARCHITECTURE.md).
  ...layerRules(),
  {
    files: ["src/cli.ts", "src/cli-yargs.ts", "src/commands/**"],
    rules: { "no-console": "off" },
  },
  {
    // The hook's fast path exits 0 once the worker has its event; it prints nothing.
    files: EXIT_FILES,
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
