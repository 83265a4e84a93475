import { describe, expect, it } from 'vitest';
import {
  linkOrigin,
  publicUrlWarning,
  reachedOverHttps,
  requestAddress,
  requestOrigin,
  trustProxyOption,
} from './public-url.js';

const evil = { protocol: 'http', host: 'evil.example' };

describe('public URL', () => {
  it('builds links to other people from LOOKOUT_PUBLIC_URL, else from localhost and PORT', () => {
    expect(linkOrigin({ publicUrl: 'https://lookout.example', port: 8080 })).toBe('https://lookout.example');
    expect(linkOrigin({ publicUrl: undefined, port: 9000 })).toBe('http://localhost:9000');
  });

  it("answers the requester on LOOKOUT_PUBLIC_URL when set, else on the request's own host", () => {
    expect(requestOrigin(evil, 'https://lookout.example:8443')).toBe('https://lookout.example:8443');
    expect(requestAddress(evil, 'https://lookout.example')).toEqual({ protocol: 'https', host: 'lookout.example' });
    expect(requestOrigin(evil)).toBe('http://evil.example');
  });

  it('sets Secure cookies when the request or the public URL is https', () => {
    expect(reachedOverHttps({ protocol: 'https' })).toBe(true);
    expect(reachedOverHttps({ protocol: 'http' }, 'https://lookout.example')).toBe(true);
    expect(reachedOverHttps({ protocol: 'http' }, 'http://lookout.example')).toBe(false);
    expect(reachedOverHttps({ protocol: 'http' })).toBe(false);
  });

  it("gives Fastify a trust function for a hop count, which Fastify itself would read as 'trust nobody'", () => {
    expect(trustProxyOption(false)).toBe(false);
    expect(trustProxyOption(true)).toBe(true);
    expect(trustProxyOption(['10.0.0.0/8', 'loopback'])).toEqual(['10.0.0.0/8', 'loopback']);
    const twoHops = trustProxyOption(2) as (address: string, hop: number) => boolean;
    expect([0, 1, 2].map((hop) => twoHops('10.0.0.1', hop))).toEqual([true, true, false]);
  });

  it('warns at start without LOOKOUT_PUBLIC_URL, naming it and where links go instead', () => {
    expect(publicUrlWarning({ publicUrl: 'https://lookout.example', port: 8080 })).toBeUndefined();
    const warning = publicUrlWarning({ publicUrl: undefined, port: 9000 });
    expect(warning).toContain('LOOKOUT_PUBLIC_URL');
    expect(warning).toContain('http://localhost:9000');
  });
});
