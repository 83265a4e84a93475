import { VALIDATION_MESSAGES, type CanaryDocument } from '@lookout/contracts';
import { act, renderHook, waitFor } from '@testing-library/react';
import { AxiosError, type AxiosResponse } from 'axios';
import type { FormEvent } from 'react';
import { describe, expect, it, vi, type Mock } from 'vitest';
import { canaryRowFixture } from '@/test/health-fixtures';
import { canaryRowToDraft, newCanaryDraft } from '../lib/canary-draft-fns';
import { useCanaryForm, type UseCanaryFormOptions } from './use-canary-form';

const stored = canaryRowToDraft(canaryRowFixture());
const submitEvent = { preventDefault: () => undefined, persist: () => undefined } as unknown as FormEvent;

type SaveMock = Mock<(document: CanaryDocument) => Promise<unknown>>;

function renderForm(options: Partial<Omit<UseCanaryFormOptions, 'save'>> & { save?: SaveMock } = {}) {
  const save: SaveMock = options.save ?? vi.fn(() => Promise.resolve());
  const view = renderHook(() =>
    useCanaryForm({ initial: newCanaryDraft(), existing: false, readOnly: false, ...options, save }),
  );
  const submit = async () => {
    await act(async () => {
      view.result.current.onSubmit(submitEvent);
      await Promise.resolve();
    });
  };
  return { ...view, save, submit };
}

describe('useCanaryForm', () => {
  it('shows no problem in the form until a save is tried, then names every field', async () => {
    const { result, save, submit } = renderForm();
    expect(result.current.problems).toEqual([]);
    expect(result.current.fieldErrors.size).toBe(0);

    await submit();
    await waitFor(() => expect(result.current.submitted).toBe(true));
    expect(save).not.toHaveBeenCalled();
    expect(result.current.problems.map((problem) => problem.message)).toContain('spec.http[0].url: is required');
    expect(result.current.fieldErrors.get('metadata.name')).toBe(VALIDATION_MESSAGES.required);
    expect(result.current.fieldErrors.get('spec.http[0].url')).toBe(VALIDATION_MESSAGES.required);
  });

  it('updates the messages as fields change after a save try, and saves the valid document', async () => {
    const { result, save, submit } = renderForm();
    await submit();
    act(() => {
      result.current.edit.metadata({ name: 'shop' });
      result.current.edit.check('http', 0, { name: 'home', url: 'https://shop.example.com' });
    });
    expect(result.current.problems).toEqual([]);
    expect(result.current.fieldErrors.size).toBe(0);

    await submit();
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]?.[0]).toEqual({
      apiVersion: 'canaries.flanksource.com/v1',
      kind: 'Canary',
      metadata: { name: 'shop', namespace: 'default' },
      spec: { schedule: '@every 5m', http: [{ name: 'home', url: 'https://shop.example.com', responseCodes: [200] }] },
    });
  });

  it('renumbers problems when a check is removed', async () => {
    const { result, submit } = renderForm({ initial: stored });
    act(() => result.current.edit.addCheck('tcp'));
    act(() => result.current.edit.addCheck('tcp'));
    act(() => result.current.edit.check('tcp', 1, { name: 'db', endpoint: 'db:5432' }));
    await submit();
    expect(result.current.fieldErrors.get('spec.tcp[0].name')).toBe(VALIDATION_MESSAGES.required);
    act(() => result.current.edit.removeCheck('tcp', 0));
    expect(result.current.draft.spec.tcp).toEqual([{ name: 'db', endpoint: 'db:5432' }]);
    expect(result.current.problems).toEqual([]);
  });

  it('shows the message of a refused save', async () => {
    const conflict = new AxiosError('Request failed with status code 409', 'ERR_BAD_REQUEST', undefined, undefined, {
      status: 409,
      data: { error: { code: 'conflict', message: "A canary named 'web' already exists from ConfigFile." } },
    } as AxiosResponse);
    const save: SaveMock = vi.fn(() => Promise.reject(conflict));
    const { result, submit } = renderForm({ initial: stored, existing: true, save });
    await submit();
    await waitFor(() =>
      expect(result.current.serverError).toBe("A canary named 'web' already exists from ConfigFile."),
    );
    // The next try starts without it.
    save.mockImplementationOnce(() => Promise.resolve());
    await submit();
    await waitFor(() => expect(result.current.serverError).toBeUndefined());
  });

  it('saves nothing when read-only', async () => {
    const { save, submit, result } = renderForm({ initial: stored, existing: true, readOnly: true });
    await submit();
    await waitFor(() => expect(result.current.submitted).toBe(true));
    expect(save).not.toHaveBeenCalled();
  });

  it('edits the document as YAML, validated as typed, and brings it back to the form', async () => {
    const { result, save, submit } = renderForm({ initial: stored, existing: true });
    act(() => result.current.switchMode('yaml'));
    expect(result.current.mode).toBe('yaml');
    expect(result.current.yaml).toContain('url: https://example.com');

    act(() => result.current.setYaml(result.current.yaml.replace('url: https://example.com', 'url: nope')));
    // No save was tried, yet the YAML view lists what is wrong.
    expect(result.current.problems.map((problem) => problem.message)).toEqual(['spec.http[0].url: must be a URL']);
    act(() => result.current.setYaml(result.current.yaml.replace('name: web', 'name: renamed')));
    expect(result.current.problems.map((problem) => problem.message)).toContain(
      "metadata.name: cannot be changed on an existing health check (it is 'web')",
    );
    await submit();
    expect(save).not.toHaveBeenCalled();

    act(() =>
      result.current.setYaml(
        result.current.yaml.replace('name: renamed', 'name: web').replace('url: nope', 'url: https://example.net'),
      ),
    );
    expect(result.current.problems).toEqual([]);
    act(() => result.current.switchMode('form'));
    expect(result.current.mode).toBe('form');
    expect(result.current.draft.spec.http).toEqual([
      { name: 'home', url: 'https://example.net', responseCodes: [200] },
    ]);
    await submit();
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
  });

  it('keeps the YAML view open while the YAML cannot be read', () => {
    const { result } = renderForm({ initial: stored });
    act(() => result.current.switchMode('yaml'));
    act(() => result.current.setYaml('metadata: [\n'));
    expect(result.current.yamlError).toBeDefined();
    act(() => result.current.switchMode('form'));
    expect(result.current.mode).toBe('yaml');
  });
});
