import tseslint from 'typescript-eslint';
import pgkube from './lint/module-boundaries.js';

export default tseslint.config(
  {
    ignores: ['dist/**', 'dist-test/**', 'node_modules/**', 'migrations/**', '.pgkube/**', '.test-data/**'],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // modules/<name>/ is imported from outside only through its index.ts (lint/module-boundaries.js)
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    plugins: { pgkube },
    rules: { 'pgkube/module-boundaries': 'error' },
  },
);
