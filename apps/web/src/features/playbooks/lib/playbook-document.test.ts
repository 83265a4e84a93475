import { PLAYBOOK_PARAMETER_MESSAGES } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { NEW_PLAYBOOK_SPEC_YAML, readPlaybookForm, specToYaml } from './playbook-document';

describe('readPlaybookForm', () => {
  it('accepts a title and a valid spec', () => {
    const result = readPlaybookForm(' Echo ', NEW_PLAYBOOK_SPEC_YAML);
    expect(result).toMatchObject({ ok: true, title: 'Echo' });
  });

  it('requires the title and the spec', () => {
    expect(readPlaybookForm('', '')).toEqual({
      ok: false,
      errors: { title: PLAYBOOK_PARAMETER_MESSAGES.required, spec: [PLAYBOOK_PARAMETER_MESSAGES.required] },
    });
  });

  it('names the fields the schema refuses', () => {
    const result = readPlaybookForm('x', 'actions:\n  - name: a\n    exec: {}\n');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.spec?.join('\n')).toContain('spec.actions[0].exec.script');
  });

  it('refuses YAML that does not parse or is not a mapping', () => {
    const bad = readPlaybookForm('x', 'actions: [');
    expect(bad.ok).toBe(false);
    const list = readPlaybookForm('x', '- a');
    expect(list.ok).toBe(false);
  });

  it('shows a stored spec as YAML', () => {
    expect(specToYaml({ actions: [] })).toBe('actions: []\n');
    expect(specToYaml(null)).toBe('');
  });
});
