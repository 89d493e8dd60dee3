import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and integration tests run in Node; renderer component tests opt into jsdom per file.
// End-to-end tests (test/e2e) drive Debian Chromium through the real bridge.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // At least two files at once: many tests wait on child processes (the CLI bundle, the
    // model host, Chromium), so on a 2-core machine a second worker fills that wait (vitest's
    // own default there is one worker: 662 s → 400 s for the suite, README "Tests").
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['test/globalSetup.ts'],
    reporters: ['default'],
  },
});
