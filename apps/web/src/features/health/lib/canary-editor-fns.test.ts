import { CANARY_API_VERSION, CANARY_KIND } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { canaryRowFixture } from '@/test/health-fixtures';
import { canaryRowToDraft, draftToYaml, newCanaryDraft } from './canary-draft-fns';
import { canaryEditorResolver, checkCanaryEditor, toDraft, type CanaryEditorValues } from './canary-editor-fns';

const stored = canaryRowToDraft(canaryRowFixture());
const values = (draft = stored, yaml = ''): CanaryEditorValues => ({ draft, yaml });
const resolve = (input: CanaryEditorValues, context: Parameters<typeof canaryEditorResolver>[1]) =>
  canaryEditorResolver(input, context, { fields: {}, shouldUseNativeValidation: false });

describe('checkCanaryEditor', () => {
  it('names every problem of a new draft, each once', () => {
    const check = checkCanaryEditor(values(newCanaryDraft()), { mode: 'form' });
    expect(check.document).toBeUndefined();
    expect(check.problems.map((problem) => problem.message)).toEqual([
      'metadata.name: is required',
      "metadata.name: must use lowercase letters, digits, '-' and '.', and start and end with a letter or digit",
      'spec.http[0].name: is required',
      'spec.http[0].url: is required',
      'spec.http[0].url: must be a URL',
    ]);
  });

  it('gives the document, with defaults, when the draft is valid', () => {
    const check = checkCanaryEditor(values(), { mode: 'form' });
    expect(check.problems).toEqual([]);
    expect(check.document).toMatchObject({ metadata: { name: 'web', namespace: 'default' }, spec: { interval: 60 } });
  });

  it('validates the YAML as written in the YAML view, not the draft', () => {
    const yaml = draftToYaml(stored).replace('url: https://example.com', 'url: not-a-url\n      respnseCodes: [200]');
    const check = checkCanaryEditor(values(stored, yaml), { mode: 'yaml' });
    expect(check.problems.map((problem) => problem.message)).toEqual([
      'spec.http[0].url: must be a URL',
      'spec.http[0].respnseCodes: unknown field',
    ]);
    // A value no form could hold is named as it is.
    expect(checkCanaryEditor(values(stored, 'apiVersion: 3\n'), { mode: 'yaml' }).problems[0]?.message).toMatch(
      /^apiVersion: must be/,
    );
  });

  it('says why YAML cannot be read, and offers nothing to save', () => {
    const broken = checkCanaryEditor(values(stored, 'metadata: [\n'), { mode: 'yaml' });
    expect(broken.yamlError).toMatch(/line 2/);
    expect(broken.problems).toEqual([]);
    expect(broken.document).toBeUndefined();
    expect(checkCanaryEditor(values(stored, 'a: 1\n---\nb: 2\n'), { mode: 'yaml' }).yamlError).toBe(
      'Write one canary per health check',
    );
  });

  it('refuses a new name or namespace for a canary that exists', () => {
    const locked = { name: 'web', namespace: 'default' };
    const renamed = { ...stored, metadata: { ...stored.metadata, name: 'shop', namespace: 'prod' } };
    const check = checkCanaryEditor(values(renamed), { mode: 'form', locked });
    expect(check.document).toBeUndefined();
    expect(check.problems.map((problem) => problem.message)).toEqual([
      "metadata.name: cannot be changed on an existing health check (it is 'web')",
      "metadata.namespace: cannot be changed on an existing health check (it is 'default')",
    ]);
    // A new canary may have any name.
    expect(checkCanaryEditor(values(renamed), { mode: 'form' }).document).toBeDefined();
  });
});

describe('canaryEditorResolver', () => {
  it('hands a valid draft on as the canary document', async () => {
    const result = await resolve(values(), { mode: 'form' });
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({ apiVersion: CANARY_API_VERSION, kind: CANARY_KIND });
  });

  it('refuses an invalid draft with every problem on the draft', async () => {
    const result = await resolve(values(newCanaryDraft()), { mode: 'form' });
    expect(result.values).toEqual({});
    expect(result.errors.draft?.message?.split('\n')).toEqual(
      checkCanaryEditor(values(newCanaryDraft()), { mode: 'form' }).problems.map((problem) => problem.message),
    );
  });

  it('refuses unreadable YAML on the YAML field, even when the draft is valid', async () => {
    const result = await resolve(values(stored, 'a: 1\n---\nb: 2\n'), { mode: 'yaml' });
    expect(result.errors).toEqual({ yaml: { type: 'validate', message: 'Write one canary per health check' } });
  });
});

describe('toDraft', () => {
  it('reads a document shaped like a canary, with a default namespace', () => {
    expect(toDraft({ apiVersion: CANARY_API_VERSION, kind: CANARY_KIND, metadata: { name: 'a' }, spec: {} })).toEqual({
      apiVersion: CANARY_API_VERSION,
      kind: CANARY_KIND,
      metadata: { name: 'a', namespace: 'default' },
      spec: {},
    });
  });

  it('keeps other top-level keys and blanks values of the wrong type', () => {
    expect(
      toDraft({ apiVersion: 1, metadata: { name: 2, labels: { a: 'b' } }, spec: { interval: 5 }, extra: true }),
    ).toEqual({
      apiVersion: '',
      kind: '',
      metadata: { name: '', namespace: 'default', labels: { a: 'b' } },
      spec: { interval: 5 },
      extra: true,
    });
  });

  it('refuses what the form cannot show', () => {
    expect(toDraft([])).toBeUndefined();
    expect(toDraft({ metadata: {}, spec: [] })).toBeUndefined();
    expect(toDraft({ spec: {} })).toBeUndefined();
  });
});
