import { describe, expect, it } from 'vitest';
import { silenceFormValues, silenceRequest, switchSilenceKind, validateSilenceForm } from './silence-form-fns';

const CHECK = '11111111-1111-4111-8111-111111111111';
const CANARY = '22222222-2222-4222-8222-222222222222';

describe('silence form', () => {
  it('prefills from the address and opens on the first prefilled kind', () => {
    const values = silenceFormValues(new URLSearchParams(`check_id=${CHECK}&canary_id=${CANARY}`));
    expect(values.kind).toBe('check');
    expect(values.ids).toEqual({ component: '', config: '', check: CHECK, canary: CANARY });
  });

  it('opens on Catalog when nothing is prefilled', () => {
    expect(silenceFormValues(new URLSearchParams()).kind).toBe('config');
  });

  it('clears the other ids when the kind changes', () => {
    const values = switchSilenceKind(
      silenceFormValues(new URLSearchParams(`check_id=${CHECK}&canary_id=${CANARY}`)),
      'canary',
    );
    expect(values.ids).toEqual({ component: '', config: '', check: '', canary: CANARY });
  });

  it('requires a resource id, a UUID, and an until after from', () => {
    const empty = silenceFormValues(new URLSearchParams());
    expect(validateSilenceForm(empty)).toEqual({ resource: 'This field is required' });
    expect(validateSilenceForm({ ...empty, ids: { ...empty.ids, config: 'abc' } }).resource).toBe(
      'Please enter a valid id',
    );
    const window = { ...empty, ids: { ...empty.ids, config: CHECK }, mode: 'absolute' as const };
    expect(validateSilenceForm({ ...window, from: '2026-01-02T10:00', until: '2026-01-02T09:00' }).until).toBe(
      'Until must be after From',
    );
    expect(validateSilenceForm({ ...window, from: '2026-01-02T10:00', until: '' }).until).toBe(
      'This field is required',
    );
    expect(validateSilenceForm({ ...window, from: '2026-01-02T10:00', until: '2026-01-02T11:00' })).toEqual({});
  });

  it('sends one resource id and a relative window as now / now+<dur>', () => {
    const values = silenceFormValues(new URLSearchParams(`check_id=${CHECK}&canary_id=${CANARY}`));
    expect(silenceRequest({ ...values, duration: '6h', recursive: true, description: ' deploy ' })).toEqual({
      check_id: CHECK,
      recursive: true,
      from: 'now',
      until: 'now+6h',
      description: 'deploy',
    });
  });

  it('sends an absolute window as ISO times', () => {
    const values = { ...silenceFormValues(new URLSearchParams(`check_id=${CHECK}`)), mode: 'absolute' as const };
    const request = silenceRequest({ ...values, from: '2026-01-02T10:00', until: '2026-01-02T11:00' });
    expect(request.from).toBe(new Date('2026-01-02T10:00').toISOString());
    expect(request.until).toBe(new Date('2026-01-02T11:00').toISOString());
    expect(request).not.toHaveProperty('description');
  });
});
