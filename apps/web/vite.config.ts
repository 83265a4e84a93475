import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { precompress } from './vite-precompress';

const backend = process.env.LOOKOUT_DEV_BACKEND ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Compile the shared contracts from source so a change there needs no separate build.
      '@lookout/contracts': fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url)),
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than our code, so they get chunks of their own that stay
        // cached across releases. Each group is one file that any page needing one of its modules
        // downloads whole, so groups follow who uses them: the sign-in pages need only react,
        // query, zod and the Ory client; the console's layout, tables, date pickers and editors
        // are in groups those pages never load (the /login budget in bench/web-weight.mjs).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/ },
            // With src/lib/zod-config.ts: the setting must run before any chunk creates a schema,
            // and the zod chunk is the one every schema's chunk imports first.
            { name: 'zod', test: /node_modules[\\/]zod[\\/]|[\\/]src[\\/]lib[\\/]zod-config\.ts$/ },
            { name: 'ory', test: /node_modules[\\/]@ory[\\/]/ },
            {
              name: 'ui',
              test: /node_modules[\\/](@radix-ui|radix-ui|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|tslib)[\\/]/,
            },
            {
              name: 'table',
              test: /node_modules[\\/]@tanstack[\\/](table-core|react-table|virtual-core|react-virtual|store|react-store)[\\/]/,
            },
            { name: 'dates', test: /node_modules[\\/](date-fns|@date-fns|react-day-picker)[\\/]/ },
            { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/ },
            // Only lazy pages use these (the health check's YAML editor; YAML for the check drawer's
            // spec).
            {
              name: 'codemirror',
              test: /node_modules[\\/](@codemirror|@lezer|codemirror|style-mod|w3c-keyname|crelt)[\\/]/,
            },
            { name: 'yaml', test: /node_modules[\\/]yaml[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': backend },
  },
});
