import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The public shop (/catalogo-digital, /ordenes/{token}) is built apart from the staff app
 * (decision 0031): its own page, shop.html, and its own chunks, so a customer's phone never
 * downloads the staff app, MUI or its router. Runs after the main build (which empties dist).
 * scripts/measure-js.mjs checks its first JavaScript against the 100 kB gzip budget.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    manifest: 'shop-manifest.json',
    sourcemap: false,
    rolldownOptions: {
      input: 'shop.html',
      // the shop takes constants and types from the contract, never its zod schemas
      treeshake: { moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }] },
    },
  },
});
