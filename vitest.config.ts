import { defineConfig } from 'vitest/config';

// Unit and integration tests run in Node; renderer component tests opt into jsdom per file.
// End-to-end tests (test/e2e) drive Debian Chromium through the real bridge.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    globalSetup: ['test/globalSetup.ts'],
    reporters: ['default'],
  },
});
