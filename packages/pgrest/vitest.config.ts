import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      // The test setup's PostgreSQL, from source: no build needed before the tests.
      '@lookout/embedded-postgres/testing': fileURLToPath(
        new URL('../embedded-postgres/src/testing.ts', import.meta.url),
      ),
    },
  },
  test: {
    name: 'pgrest',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
