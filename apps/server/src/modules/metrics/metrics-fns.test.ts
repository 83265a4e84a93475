import { describe, expect, it } from 'vitest';
import { bearerTokenOf, checkLabels, checkMetricsToken, routeLabel, UNMATCHED_ROUTE } from './metrics-fns.js';

describe('metrics token', () => {
  const token = 'a-metrics-token-of-32-characters';

  it('reads the token of an Authorization: Bearer header, whatever the scheme letter case', () => {
    expect(bearerTokenOf(`Bearer ${token}`)).toBe(token);
    expect(bearerTokenOf(`bearer  ${token} `)).toBe(token);
    expect(bearerTokenOf(`Basic ${token}`)).toBeUndefined();
    expect(bearerTokenOf('Bearer')).toBeUndefined();
    expect(bearerTokenOf(`Bearer ${token} extra`)).toBeUndefined();
    expect(bearerTokenOf(undefined)).toBeUndefined();
  });

  it('tells a missing token from a wrong one, and accepts only the configured token', () => {
    expect(checkMetricsToken(undefined, token)).toBe('missing');
    expect(checkMetricsToken(`Basic ${token}`, token)).toBe('missing');
    expect(checkMetricsToken(`Bearer ${token}x`, token)).toBe('wrong');
    expect(checkMetricsToken(`Bearer ${token.slice(0, -1)}`, token)).toBe('wrong');
    expect(checkMetricsToken(`Bearer ${token.toUpperCase()}`, token)).toBe('wrong');
    expect(checkMetricsToken(`Bearer ${token}`, token)).toBe('ok');
  });
});

describe('metric labels', () => {
  it('labels a check as canary-checker does, with empty values for what it lacks', () => {
    expect(
      checkLabels({
        id: '0190d6f5-8f54-7a1e-9c3b-3f1e2d4c5b6a',
        type: 'http',
        name: 'home',
        canary: { name: 'web', namespace: 'default' },
        endpoint: 'https://example.com/',
        owner: null,
        severity: null,
      }),
    ).toEqual({
      type: 'http',
      endpoint: 'https://example.com/',
      canary_name: 'web',
      canary_namespace: 'default',
      owner: '',
      severity: '',
      key: '0190d6f5-8f54-7a1e-9c3b-3f1e2d4c5b6a',
      name: 'home',
    });
  });

  it('labels a request with its route pattern, and requests that matched no route alike', () => {
    expect(routeLabel('/api/canary/run/check/:id')).toBe('/api/canary/run/check/:id');
    expect(routeLabel(undefined)).toBe(UNMATCHED_ROUTE);
    expect(routeLabel('')).toBe(UNMATCHED_ROUTE);
  });
});
