// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Folder names under a directory, so new features and modules are fenced automatically. */
const foldersIn = (dir) => {
  try {
    return readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
};

const webFeatures = foldersIn('./apps/web/src/features/');
const serverModules = foldersIn('./apps/server/src/modules/');

/**
 * Web features never import each other or the app layer: pages in src/app compose them
 * (ARCHITECTURE section 2, STYLE habit 2).
 */
const webFeatureFences = webFeatures.map((feature) => ({
  files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            // Inside a feature, its own files are imported relatively; an '@/features/...'
            // import always reaches into another feature.
            regex: '^@/features/',
            message: 'Features do not import each other; compose them in a page under src/app/routes.',
          },
          ...(webFeatures.length > 1
            ? [
                {
                  group: webFeatures.filter((other) => other !== feature).map((other) => `**/features/${other}/**`),
                  message: 'Features do not import each other; compose them in a page under src/app/routes.',
                },
                {
                  group: webFeatures.filter((other) => other !== feature).map((other) => `../../${other}/**`),
                  message: 'Features do not import each other; compose them in a page under src/app/routes.',
                },
              ]
            : []),
          { regex: '^@/app(/|$)', message: 'Features do not depend on the app layer.' },
        ],
      },
    ],
  },
}));

/**
 * Shared UI widgets and lib code stay generic: they import neither features nor the app.
 */
const webSharedFence = {
  files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
  ignores: ['apps/web/src/components/layout/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@/features/**', '@/app/**'],
            message: 'Shared components and lib code must not import features or the app.',
          },
        ],
      },
    ],
  },
};

/**
 * A server module may know another module's service type (narrowed with Pick<>) but never
 * imports its code: services arrive through the factory (STYLE habit 5).
 */
const serverModuleFences = serverModules.map((moduleName) => ({
  files: [`apps/server/src/modules/${moduleName}/**/*.ts`],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: serverModules
          .filter((other) => other !== moduleName)
          .map((other) => ({
            group: [`../${other}/*`, `**/modules/${other}/*`],
            allowTypeImports: true,
            message: `Module '${moduleName}' must not import module '${other}'; receive its service through the factory.`,
          })),
      },
    ],
  },
}));

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '.lookout/**', 'coverage/**', 'e2e/artifacts/**', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['scripts/**', 'bench/**', '**/*.config.{js,ts}'],
    rules: { 'no-console': 'off' },
  },
  webSharedFence,
  ...webFeatureFences,
  ...serverModuleFences,
);
