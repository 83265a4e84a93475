import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      '@lookout/contracts': fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url)),
      // The subpath first: an alias also matches the names that begin with it.
      '@lookout/embedded-postgres/testing': fileURLToPath(
        new URL('../../packages/embedded-postgres/src/testing.ts', import.meta.url),
      ),
      '@lookout/embedded-postgres': fileURLToPath(
        new URL('../../packages/embedded-postgres/src/index.ts', import.meta.url),
      ),
      '@lookout/pgrest': fileURLToPath(new URL('../../packages/pgrest/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
