/**
 * Renderer build, shared by electron-vite (desktop) and plain vite (browser mode).
 * Relative asset paths so the same build loads from file:// and from the bridge.
 */
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export const rendererConfig: UserConfig = {
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../out/renderer', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 4000,
    rollupOptions: { input: fileURLToPath(new URL('./index.html', import.meta.url)) },
  },
};

export default defineConfig(rendererConfig);
