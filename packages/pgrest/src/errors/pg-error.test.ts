import { describe, expect, it } from 'vitest';
import { fromPgError, statusForSqlState } from './pg-error.js';

describe('SQLSTATE to HTTP status, as PostgREST 14 maps them', () => {
  it.each([
    ['23505', 409],
    ['23503', 409],
    ['23502', 400],
    ['23514', 400],
    ['22P02', 400],
    ['42703', 400],
    ['42883', 404],
    ['42P01', 404],
    ['25006', 405],
    ['57014', 500],
    ['40001', 500],
    ['53300', 503],
    ['08006', 503],
    ['P0001', 400],
    ['XX000', 500],
    ['0P000', 403],
    ['28P01', 403],
    ['PT418', 418],
  ])('%s is %i', (code, status) => {
    expect(statusForSqlState(code, 'message', true)).toBe(status);
  });

  it('answers 42501 with 401 for anonymous callers and 403 for authenticated ones', () => {
    expect(statusForSqlState('42501', 'permission denied', false)).toBe(401);
    expect(statusForSqlState('42501', 'permission denied', true)).toBe(403);
    expect(fromPgError({ code: '42501', message: 'permission denied' }, false).headers).toEqual({
      'WWW-Authenticate': 'Bearer',
    });
  });

  it('carries the PostgreSQL code, message, detail and hint', () => {
    expect(
      fromPgError(
        { code: '23505', message: 'duplicate key', detail: 'Key (id)=(1) already exists.', hint: undefined },
        true,
      ).toBody(),
    ).toEqual({ code: '23505', message: 'duplicate key', details: 'Key (id)=(1) already exists.', hint: null });
  });

  it("gives functions full control with RAISE SQLSTATE 'PGRST'", () => {
    const error = fromPgError(
      {
        code: 'PGRST',
        message: '{"code":"123","message":"Payment Required"}',
        detail: '{"status":402,"headers":{"X-Powered-By":"Nerd Rage"}}',
      },
      true,
    );
    expect(error.status).toBe(402);
    expect(error.headers).toEqual({ 'X-Powered-By': 'Nerd Rage' });
    expect(error.toBody()).toEqual({ code: '123', message: 'Payment Required', details: null, hint: null });
  });
});
