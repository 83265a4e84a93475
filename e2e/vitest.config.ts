import { defineConfig } from 'vitest/config';

// End-to-end journeys: the built server in a child process, driven by Debian's Chromium.
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // One browser and a few servers at a time is what a 2-core machine handles well.
    fileParallelism: false,
  },
});
