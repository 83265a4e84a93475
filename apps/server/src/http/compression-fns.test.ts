import { describe, expect, it } from 'vitest';
import { chooseEncoding, isCompressibleType, varyWithAcceptEncoding, weakenEtag } from './compression-fns.js';

describe('chooseEncoding', () => {
  it('prefers brotli, then gzip, as browsers offer them', () => {
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('x-gzip')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
  });

  it('honours q-values, refusals and identity', () => {
    expect(chooseEncoding('br;q=0.5, gzip')).toBe('gzip');
    expect(chooseEncoding('br;q=0, *;q=0.1')).toBe('gzip');
    expect(chooseEncoding('*;q=0')).toBeUndefined();
    expect(chooseEncoding('identity')).toBeUndefined();
    expect(chooseEncoding('deflate')).toBeUndefined();
    expect(chooseEncoding('')).toBeUndefined();
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('br;q=nonsense, gzip;q=0.2')).toBe('gzip');
  });
});

describe('isCompressibleType', () => {
  it('compresses text, JSON (with PostgREST’s vendor types), YAML, JavaScript and SVG', () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/vnd.pgrst.object+json',
      'application/openapi+json',
      'application/yaml',
      'text/html; charset=utf-8',
      'text/csv',
      'text/javascript',
      'application/javascript',
      'image/svg+xml',
    ]) {
      expect(isCompressibleType(type), type).toBe(true);
    }
  });

  it('leaves server-sent events and already compressed formats alone', () => {
    for (const type of [
      'text/event-stream',
      'image/png',
      'application/octet-stream',
      'font/woff2',
      'application/zip',
    ]) {
      expect(isCompressibleType(type), type).toBe(false);
    }
    expect(isCompressibleType(undefined)).toBe(false);
  });
});

describe('headers', () => {
  it('adds Accept-Encoding to Vary once', () => {
    expect(varyWithAcceptEncoding(undefined)).toBe('Accept-Encoding');
    expect(varyWithAcceptEncoding('Origin')).toBe('Origin, Accept-Encoding');
    expect(varyWithAcceptEncoding('accept-encoding')).toBe('accept-encoding');
    expect(varyWithAcceptEncoding('*')).toBe('*');
  });

  it('weakens a strong ETag', () => {
    expect(weakenEtag('"abc"')).toBe('W/"abc"');
    expect(weakenEtag('W/"abc"')).toBe('W/"abc"');
  });
});
