import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', '.data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginQuery.configs['flat/recommended'],
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/main.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/mock/**', '**/generator/**', '**/web/**'] },
      ],
    },
  },
  {
    files: ['src/mock/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/server/**', '**/web/**', '**/client/**'] },
      ],
    },
  },
  {
    // The generator imports nothing of Kiln's.
    files: ['src/generator/**/*.ts'],
    ignores: ['**/*.test.ts', 'src/generator/test-support.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../*'] }] },
  },
  {
    // Format knowledge is isomorphic and dependency-free: nothing of Kiln's, nothing of Node's.
    files: ['src/formats/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['../*', 'node:*', 'sharp', 'zod', 'react', 'three'] },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Imports flow one way: web → client → contract (tests may reach the mock).
    files: ['src/web/**/*.{ts,tsx}', 'src/client/**/*.ts', 'src/contract/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/server/**', '**/mock/**', '**/generator/**', 'node:*'] },
      ],
    },
  },
);
