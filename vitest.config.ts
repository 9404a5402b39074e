import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    restoreMocks: true,
    clearMocks: true,
    testTimeout: 10_000,
    hookTimeout: 20_000,
    coverage: { provider: "v8", include: ["src/**"] },
    // Says which real-program tests are skipped here, and why (outside CI only).
    globalSetup: ["test/helpers/real-programs-notice.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "test/real-clients/**"],
        },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], testTimeout: 30_000 },
      },
      {
        // The pinned agent clients (test/real-clients/pinned.json), each driven through a turn.
        extends: true,
        test: {
          name: "clients",
          include: ["test/real-clients/**/*.test.ts"],
          testTimeout: 240_000,
        },
      },
    ],
  },
});
