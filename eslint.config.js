// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = [
  'auth',
  'donors',
  'blood-requests',
  'donations',
  'hospitals',
  'admin',
  'education',
  'facilities',
  'notifications',
  'flags',
  'site',
  'contact',
  'health',
  'analytics',
  'users',
  'documents',
  'certificates',
  'client-logs',
];

/** Features never import each other; they are composed in app/ (CONVENTIONS.md). */
function featureIsolation(root) {
  return FEATURES.map((feature) => ({
    target: `${root}/features/${feature}`,
    from: `${root}/features`,
    except: [`./${feature}`],
  }));
}

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/coverage/**',
      '**/playwright-report/**',
      '**/test-results/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...featureIsolation('./apps/web/src'),
            ...featureIsolation('./apps/server/src'),
            { target: './apps/web', from: './apps/server' },
            { target: './apps/server', from: './apps/web' },
          ],
        },
      ],
    },
  },
  {
    // Configuration is parsed once in config/env.ts; everything else receives it.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/config/**',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/test/**',
      'apps/server/src/db/migrate-cli.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration from config/env.ts.' },
      ],
    },
  },
  {
    files: ['packages/shared/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\.)', message: 'Shared code imports only zod.' }] },
      ],
    },
  },
  {
    files: ['packages/shared/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  prettier,
);
