// Lint: typescript-eslint recommended rules over the TypeScript sources.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
