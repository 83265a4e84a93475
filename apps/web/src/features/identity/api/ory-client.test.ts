import { describe, expect, it } from 'vitest';
import { parseIdentityError } from './ory-client';

describe('parseIdentityError', () => {
  it('reads the Kratos error id, reason and redirect (top level or in details)', () => {
    expect(
      parseIdentityError(422, {
        error: { id: 'browser_location_change_required', reason: 'go there' },
        redirect_browser_to: 'https://idp.example/',
      }),
    ).toMatchObject({
      status: 422,
      id: 'browser_location_change_required',
      message: 'go there',
      redirectBrowserTo: 'https://idp.example/',
    });
    expect(
      parseIdentityError(403, { error: { id: 'session_aal2_required', details: { redirect_browser_to: '/x' } } }),
    ).toMatchObject({ id: 'session_aal2_required', redirectBrowserTo: '/x' });
    expect(parseIdentityError(410, { error: { id: 'self_service_flow_expired' }, use_flow_id: 'f2' })).toMatchObject({
      useFlowId: 'f2',
    });
  });

  it('copes with a body that is not Kratos JSON', () => {
    expect(parseIdentityError(502, undefined)).toEqual({ status: 502, body: undefined });
  });
});
