// Lint: typescript-eslint recommended rules over the TypeScript sources, and the renderer's boundaries.
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
    // Pages share code through components/, never by importing one another.
    files: ['renderer/src/pages/*/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: rendererPaths, patterns: [...rendererBoundaries, { regex: '^\\.\\./(?!\\.\\./)[^/]+/', message: 'Pages do not import each other: move what they share to renderer/src/components/.' }] }],
    },
  },
);
