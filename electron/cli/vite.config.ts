/**
 * The CLI, bundled into out/cli/veil.js (ES modules; node_modules stay external) so
 * `veil` starts without compiling TypeScript: `npm run build:cli`, part of `npm run build`.
 * bin/veil.mjs runs the bundle while it is newer than every source it was built from
 * (out/cli/inputs.json), else runs the sources through tsx.
 */
import { writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));
const outDir = fileURLToPath(new URL('../../out/cli', import.meta.url));

/** Writes the bundle's source files (relative to the repository) and when the build started, for the freshness check. */
function listInputs(): Plugin {
  let startedMs = 0;
  return {
    name: 'veil-cli-inputs',
    buildStart() {
      startedMs = Date.now();
    },
    generateBundle(_options, bundle) {
      const files = new Set<string>();
      for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk') for (const id of Object.keys(chunk.modules)) if (!id.startsWith('\0')) files.add(relative(root, id.split('?')[0]));
      this.emitFile({ type: 'asset', fileName: 'inputs.json', source: JSON.stringify({ startedMs, files: [...files].sort() }) });
    },
  };
}

/**
 * Stores every command's help text in out/cli/help.json, from the bundle just written, with the
 * default data directory it shows (quickHelp.ts uses the texts only while that is still the default).
 */
function storeHelp(): Plugin {
  return {
    name: 'veil-cli-help',
    async closeBundle() {
      const { buildProgram } = (await import(pathToFileURL(`${outDir}/veil.js`).href)) as { buildProgram: () => Command };
      const { defaultDataDir, helpText } = (await import(pathToFileURL(`${outDir}/quickHelp.js`).href)) as { defaultDataDir: () => string; helpText: (c: Command) => string };
      const texts: Record<string, string> = {};
      const visit = (command: Command, path: string[]): void => {
        texts[path.join(' ')] = helpText(command);
        for (const sub of command.commands) visit(sub, [...path, sub.name()]);
      };
      visit(buildProgram(), []);
      writeFileSync(`${outDir}/help.json`, JSON.stringify({ dataDir: defaultDataDir(), texts }));
    },
  };
}

export default defineConfig({
  root,
  logLevel: 'warn',
  plugins: [listInputs(), storeHelp()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'node20',
    minify: false,
    sourcemap: false,
    ssr: true,
    reportCompressedSize: false,
    rollupOptions: {
      // The model host beside the CLI, where launchModelHost looks for a built modelHost.js.
      input: { veil: fileURLToPath(new URL('./main.ts', import.meta.url)), quickHelp: fileURLToPath(new URL('./quickHelp.ts', import.meta.url)), modelHost: fileURLToPath(new URL('../workers/modelHost.ts', import.meta.url)) },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      external: (id) => builtinModules.includes(id) || id.startsWith('node:') || !(id.startsWith('.') || id.startsWith('/')),
    },
  },
});
