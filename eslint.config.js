// Lint: typescript-eslint recommended rules over the TypeScript sources, and the layering
// (docs: ARCHITECTURE §1): the renderer's boundaries, pure core/, Electron-free services.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What the renderer may not import: it runs sandboxed and talks only to the API contract (electron/shared). */
const rendererBoundaries = [
  { group: ['**/electron/services', '**/electron/services/**'], message: 'The renderer calls services only through the API contract (electron/shared).' },
  { group: ['**/electron/main', '**/electron/main/**'], message: 'The renderer never imports the Electron main process.' },
  { group: ['bridge', 'cli', 'preload', 'workers'].flatMap((dir) => [`**/electron/${dir}`, `**/electron/${dir}/**`]), message: 'Host-side code (Node): the renderer talks only to the API contract (electron/shared).' },
  { group: ['node:*'], message: 'The renderer runs sandboxed, without Node built-ins.' },
];
const rendererPaths = [{ name: 'electron', message: 'The renderer reaches Electron only through the preload API.' }];

/** core/ is pure TypeScript: no Node built-ins, no Electron, nothing from the host (electron/) or the UI (renderer/). */
const coreMessage = {
  node: 'core/ is pure TypeScript without Node built-ins: the host (electron/services) does the I/O and passes data in.',
  electron: 'core/ never imports Electron.',
  host: 'core/ does not depend on the host or the UI: electron/ and renderer/ import core/, not the other way round.',
};
const coreBoundaries = [
  { group: ['node:*'], message: coreMessage.node },
  { regex: '^electron(/|$)', message: coreMessage.electron },
  { regex: '^(\\.\\./)+(electron|renderer)(/|$)', message: coreMessage.host },
];
const corePaths = builtinModules.filter((name) => !name.startsWith('_')).map((name) => ({ name, message: coreMessage.node }));

/** electron/services/ runs in the desktop app, browser mode and the CLI alike: no Electron module, no Electron shell. */
const servicesMessage = {
  electron: 'Services run without Electron too (browser mode, CLI): electron/main passes in what they need.',
  main: 'Services never import the Electron shell (electron/main): main calls services, not the other way round.',
};
const servicesBoundaries = [
  { regex: '^electron(/|$)', message: servicesMessage.electron },
  { regex: '^(\\.\\./)+(electron/)?main(/|$)', message: servicesMessage.main },
];
/** Dynamic `import()` and `require()` of what a folder may not import (no-restricted-imports sees only static imports). */
const dynamicImportsOf = (regex, message) => [
  { selector: `ImportExpression[source.value=${regex}]`, message },
  { selector: `CallExpression[callee.name='require'][arguments.0.value=${regex}]`, message },
];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'Use a RandomSource (core/random): the CSPRNG for anything private.' }],
    },
  },
  { files: ['**/*.mjs', 'bin/**', 'scripts/**'], languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } } },
  // renderer/vite.config.ts is build configuration run by Node, not renderer code.
  { files: ['renderer/**'], ignores: ['renderer/vite.config.ts'], rules: { 'no-restricted-imports': ['error', { paths: rendererPaths, patterns: rendererBoundaries }] } },
  {
    files: ['core/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: corePaths, patterns: coreBoundaries }],
      'no-restricted-syntax': ['error', ...dynamicImportsOf('/^(node:|electron(\\/|$)|(\\.\\.\\/)+(electron|renderer)(\\/|$))/', 'core/ is pure TypeScript: no Node built-ins, Electron, electron/ or renderer/.')],
    },
  },
  {
    files: ['electron/services/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: servicesBoundaries }],
      'no-restricted-syntax': ['error', ...dynamicImportsOf('/^(electron(\\/|$)|(\\.\\.\\/)+(electron\\/)?main(\\/|$))/', `${servicesMessage.electron} ${servicesMessage.main}`)],
    },
  },
  {
    // Pages share code through components/, never by importing one another.
    files: ['renderer/src/pages/*/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: rendererPaths, patterns: [...rendererBoundaries, { regex: '^\\.\\./(?!\\.\\./)[^/]+/', message: 'Pages do not import each other: move what they share to renderer/src/components/.' }] }],
    },
  },
);
