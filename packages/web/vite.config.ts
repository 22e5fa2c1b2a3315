import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// React Router 7's package exports only map its development build; the production one (no dev
// warnings, about a third smaller) sits beside it and is what a built app should ship.
const reactRouterProduction = fileURLToPath(
  new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
);

export default defineConfig(({ mode }) => ({
  plugins: [react(), tailwindcss()],
  resolve: mode === 'production' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
  build: {
    // The manifest maps each route module to its chunks: the benchmark's first-screen budget reads it.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every icon in one chunk (7 kB gzip), not one chunk per icon shared by two screens: the
          // admin dashboard's first screen was 23 files, 9 of them a single icon each, and every file
          // costs the main thread a preload link, a fetch and a module of its own. Only the icons:
          // React, which they import, stays where it is. An icon only one screen uses travels with that
          // screen (minShareCount): the sign-in page no longer loads the audit trail's icons.
          groups: [
            {
              name: 'icons',
              test: /node_modules[\\/]lucide-react/,
              minShareCount: 2,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
}));
