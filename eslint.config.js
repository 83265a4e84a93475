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

/** How many folder levels lie below `dir` (0 when it has no subfolders). */
const nesting = (dir) => Math.max(0, ...foldersIn(dir).map((name) => 1 + nesting(`${dir}${name}/`)));

/**
 * A fence per folder depth inside each unit (feature or module), so it holds for files in
 * nested folders too: from `health/runners/x.ts` another module is `../../identity/...`, from
 * `health/x.ts` it is `../identity/...`. Each file matches exactly one depth's glob, so no
 * block overrides another. `fence(unit, depth)` gives the rule settings for that depth.
 */
const fencesByDepth = ({ root, units, extensions, fence }) =>
  units.flatMap((unit) =>
    Array.from({ length: nesting(`./${root}/`) }, (_, depth) => ({
      files: [`${root}/${unit}/${'*/'.repeat(depth)}*.${extensions}`],
      rules: fence(unit, depth),
    })),
  );

/** The relative path from a file `depth` folders inside a unit up to the folder holding the units. */
const upToUnits = (depth) => '../'.repeat(depth + 1);

/**
 * Web features never import each other or the app layer: pages in src/app compose them
 * (ARCHITECTURE section 2, STYLE habit 2).
 */
const FEATURE_MESSAGE = 'Features do not import each other; compose them in a page under src/app/routes.';
const webFeatureFences = fencesByDepth({
  root: 'apps/web/src/features',
  units: webFeatures,
  extensions: '{ts,tsx}',
  fence: (feature, depth) => ({
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          // Inside a feature, its own files are imported relatively; an '@/features/...'
          // import always reaches into another feature.
          { regex: '^@/features/', message: FEATURE_MESSAGE },
          ...(webFeatures.length > 1
            ? [
                {
                  group: webFeatures
                    .filter((other) => other !== feature)
                    .flatMap((other) => [`**/features/${other}/**`, `${upToUnits(depth)}${other}/**`]),
                  message: FEATURE_MESSAGE,
                },
              ]
            : []),
          { regex: '^@/app(/|$)', message: 'Features do not depend on the app layer.' },
        ],
      },
    ],
  }),
});

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
const serverModuleFences = fencesByDepth({
  root: 'apps/server/src/modules',
  units: serverModules,
  extensions: 'ts',
  fence: (moduleName, depth) => ({
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: serverModules
          .filter((other) => other !== moduleName)
          .map((other) => ({
            group: [`${upToUnits(depth)}${other}/**`, `**/modules/${other}/**`],
            allowTypeImports: true,
            message: `Module '${moduleName}' must not import module '${other}'; receive its service through the factory.`,
          })),
      },
    ],
  }),
});

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
