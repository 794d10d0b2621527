import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The SPA is served by the API server from apps/web/dist; in `vite dev` /api goes to it. */
export default defineConfig({
  plugins: [
    react(),
    {
      // `vite dev`: the public shop's screens are shop.html, as the server serves them (decision 0031)
      name: 'mostrador-shop-page',
      configureServer(server) {
        server.middlewares.use((req, _res, next) => {
          const [pathname, query] = (req.url ?? '').split('?');
          if (/^\/(catalogo-digital(\/[^/]+)?|ordenes\/[^/]+)\/?$/.test(pathname)) req.url = `/shop.html${query ? `?${query}` : ''}`;
          next();
        });
      },
    },
  ],
  server: {
    port: 5173,
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest lets scripts/measure-js.mjs sum what /login loads first.
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // The contract only declares constants and schemas: marking it side-effect free lets
      // the first load take its messages without zod (see src/lib/contract-lazy.ts).
      treeshake: { moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }] },
      // Everything the entry imports statically in one chunk: otherwise the modules it shares
      // with the lazy screens are split into many small chunks, each gzipped apart, and /login
      // pays ~8 kB more (README, Chunks).
      output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } },
    },
  },
});
