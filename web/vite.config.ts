import { defineConfig } from 'vite';
import { precompressDir } from '../src/server/precompress.js';

// Built with `vite build web` from the repository root: this folder is Vite's
// root, and the app lands in dist/web, which `cussec serve` serves at `/`.
export default defineConfig({
  base: './',
  plugins: [
    {
      // Brotli and gzip siblings of each file, sent by `cussec serve` as they are.
      name: 'cussec-precompress',
      apply: 'build',
      closeBundle() {
        precompressDir(new URL('../dist/web', import.meta.url));
      },
    },
  ],
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    // The pure rules of src/rules are bundled in so that spot names and payouts
    // have one source; they are small, so a single chunk is fine.
    chunkSizeWarningLimit: 400,
  },
  server: {
    // The app imports ../src/rules and ../src/math (pure modules) in dev mode too.
    fs: { allow: ['..'] },
  },
});
