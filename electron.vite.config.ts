/**
 * electron-vite: builds Electron main, the sandboxed preload (CommonJS, as sandboxed
 * preloads require) and the renderer into out/.
 */
import { defineConfig } from 'electron-vite';
import { rendererConfig } from './renderer/vite.config';

export default defineConfig({
  main: {
    build: { outDir: 'out/main', rollupOptions: {
        // The model host runs in its own process (utilityProcess) from out/main/modelHost.js.
        input: { index: 'electron/main/index.ts', modelHost: 'electron/workers/modelHost.ts' },
        external: ['sqlite3', 'node-llama-cpp'] }, externalizeDeps: true },
  },
  preload: {
    build: {
      // A sandboxed preload can require only 'electron': bundle everything else (zod).
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: { input: 'electron/preload/index.ts', output: { format: 'cjs', entryFileNames: 'index.cjs' } },
    },
  },
  renderer: rendererConfig,
});
