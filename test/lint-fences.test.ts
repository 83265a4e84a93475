import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import fences of eslint.config.js are architecture (ARCHITECTURE section 2); these
// cases keep them from silently stopping to work.
const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('import fences', () => {
  it('stops a web feature from importing another feature', async () => {
    const ids = await ruleIds(
      'apps/web/src/features/about/api/fence-probe.ts',
      "import { x } from '@/features/health/api/get-checks';\nexport const y = x;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('stops a web feature from importing the app layer', async () => {
    const ids = await ruleIds(
      'apps/web/src/features/about/api/fence-probe.ts',
      "import { router } from '@/app/router';\nexport const y = router;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('lets a feature import shared components and its own files', async () => {
    const ids = await ruleIds(
      'apps/web/src/features/about/api/fence-probe.ts',
      "import { api } from '@/lib/api-client';\nimport { z } from './sibling';\nexport const y = [api, z];\n",
    );
    expect(ids).not.toContain('no-restricted-imports');
  });

  it('stops shared components from importing features', async () => {
    const ids = await ruleIds(
      'apps/web/src/components/ui/fence-probe.tsx',
      "import { useAbout } from '@/features/about/api/get-about';\nexport const y = useAbout;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });

  it('stops a file at the top of a feature from importing another feature relatively', async () => {
    const ids = await ruleIds(
      'apps/web/src/features/about/fence-probe.ts',
      "import { x } from '../health/api/get-checks';\nexport const y = x;\n",
    );
    expect(ids).toContain('no-restricted-imports');
  });
});

describe('server module fences', () => {
  const MODULE_FENCE = '@typescript-eslint/no-restricted-imports';

  it("stops a module from importing another module's code", async () => {
    const ids = await ruleIds(
      'apps/server/src/modules/health/fence-probe.ts',
      "import { createIdentityService } from '../identity/identity-service.js';\nexport const y = createIdentityService;\n",
    );
    expect(ids).toContain(MODULE_FENCE);
  });

  it('holds for files in nested folders of a module (health/runners)', async () => {
    for (const specifier of ['../../identity/identity-service.js', '../../../modules/identity/identity-service.js']) {
      const ids = await ruleIds(
        'apps/server/src/modules/health/runners/fence-probe.ts',
        `import { createIdentityService } from '${specifier}';\nexport const y = createIdentityService;\n`,
      );
      expect(ids, specifier).toContain(MODULE_FENCE);
    }
  });

  it("lets a nested file import another module's types, its own module and shared infrastructure", async () => {
    const ids = await ruleIds(
      'apps/server/src/modules/health/runners/fence-probe.ts',
      [
        "import type { IdentityService } from '../../identity/identity-service.js';",
        "import { createHealthService } from '../health-service.js';",
        "import { withTransaction } from '../../../db/transaction.js';",
        'export type T = IdentityService;',
        'export const y = [createHealthService, withTransaction];',
        '',
      ].join('\n'),
    );
    expect(ids).not.toContain(MODULE_FENCE);
  });
});
