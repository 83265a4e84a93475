import { describe, expect, it } from 'vitest';
import {
  canonicalHeaderName,
  certificateExpiryFailure,
  displayUrl,
  flattenHeaders,
  isJsonContentType,
  methodAfterRedirect,
  shouldFollowRedirects,
  statusFailure,
} from './http-fns.js';

const DAY = 86_400_000;

describe('http-fns', () => {
  it('words status failures with the expected codes and any redirect target', () => {
    expect(statusFailure(503, [200])).toBe('expected status 200, got 503');
    expect(statusFailure(503, undefined)).toBe('expected status 2xx, got 503');
    expect(statusFailure(302, [200, 201], '/login')).toBe('expected status 200 or 201, got 302 (redirect to /login)');
  });

  it('fails certificates closer to expiry than maxSSLExpiry, and expired ones always', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    expect(certificateExpiryFailure(new Date(now.getTime() + 3 * DAY + 3_600_000), now, 7)).toBe(
      'certificate expires in 3 days, minimum 7',
    );
    expect(certificateExpiryFailure(new Date(now.getTime() + 30 * DAY), now, 7)).toBeUndefined();
    expect(certificateExpiryFailure(new Date(now.getTime() + 3 * DAY), now, undefined)).toBeUndefined();
    expect(certificateExpiryFailure(new Date(now.getTime() - 2 * DAY), now, undefined)).toBe(
      'certificate expired 2 days ago',
    );
    expect(certificateExpiryFailure(new Date(now.getTime() + 5 * 3_600_000), now, 1)).toBe(
      'certificate expires in 5 hours, minimum 1',
    );
  });

  it('gives headers under both Node and Go names', () => {
    expect(canonicalHeaderName('x-request-id')).toBe('X-Request-Id');
    expect(flattenHeaders({ 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] })).toEqual({
      'content-type': 'text/plain',
      'Content-Type': 'text/plain',
      'set-cookie': 'a=1, b=2',
      'Set-Cookie': 'a=1, b=2',
    });
  });

  it('follows redirects unless a 3xx code is what the check expects', () => {
    expect(shouldFollowRedirects(undefined)).toBe(true);
    expect(shouldFollowRedirects([200])).toBe(true);
    expect(shouldFollowRedirects([301])).toBe(false);
    expect(methodAfterRedirect(303, 'PUT')).toBe('GET');
    expect(methodAfterRedirect(302, 'POST')).toBe('GET');
    expect(methodAfterRedirect(307, 'POST')).toBe('POST');
  });

  it('recognises JSON content types and shows URLs without credentials or query', () => {
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType('application/problem+json')).toBe(true);
    expect(isJsonContentType('text/html')).toBe(false);
    expect(displayUrl(new URL('https://user:pw@example.com:8443/health?token=secret'))).toBe(
      'https://example.com:8443/health',
    );
  });
});
