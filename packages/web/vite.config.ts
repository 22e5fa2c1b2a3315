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
  // The manifest maps each route module to its chunks: the benchmark's first-screen budget reads it.
  build: { manifest: true },
  server: { proxy: { '/api': 'http://localhost:3000' } },
}));
