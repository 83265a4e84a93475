import { maskSecretText } from '@lookout/contracts';
import { describe, expect, it } from 'vitest';
import { createSealer } from '../../crypto/sealed-values.js';
import {
  CredentialWriteError,
  openText,
  rewriteTextCredentials,
  SEALED_VALUE_PATTERN,
  sealCredential,
  sealProperties,
  sealText,
} from './connection-credentials-fns.js';

const sealer = createSealer('a-test-key-for-connection-credentials-0123456789');
const context = 'connections:url';
/** What a reader sees: what lookout_connection_text does in SQL. */
const readView = (text: string) => maskSecretText(text.replace(SEALED_VALUE_PATTERN, '***'));

describe('credential places of a text', () => {
  it('finds a url password, password= pairs and bearer tokens, in order, with stable ids', () => {
    const seen: string[] = [];
    rewriteTextCredentials('postgres://app:pw1@db/app?sslpassword=pw2&x=1 Authorization: Bearer tok3', (slot) => {
      seen.push(`${slot.id}=${slot.value}`);
      return slot.value;
    });
    expect(seen).toEqual(['url#0=pw1', 'pair:sslpassword#0=pw2', 'pair:authorization#0=tok3']);
  });

  it('leaves text without credentials as written', () => {
    const text = 'https://prometheus.example.org:9090/api?query=up&user=ops';
    expect(sealText(text, { sealing: sealer, context, where: 'url' })).toBe(text);
  });
});

describe('sealing a url', () => {
  it('seals the password where it stands, reads as the mask reads it and opens back exactly', () => {
    const url = 'postgres://app:p%40ss:w0rd@db.internal:5432/app?sslmode=disable&password=second';
    const sealed = sealText(url, { sealing: sealer, context, where: 'url' });
    expect(sealed).not.toContain('p%40ss');
    expect(sealed).not.toContain('second');
    expect(sealed).toMatch(
      /^postgres:\/\/app:sealed:v1:[^@]+@db\.internal:5432\/app\?sslmode=disable&password=sealed:v1:/,
    );
    expect(readView(sealed)).toBe(maskSecretText(url));
    expect(readView(sealed)).toBe('postgres://app:***@db.internal:5432/app?sslmode=disable&password=***');
    expect(openText(sealed, sealer, context)).toBe(url);
  });

  it('keeps the stored value where the mask is sent back, and takes a new value elsewhere', () => {
    const stored = sealText('postgres://app:old@db/app', { sealing: sealer, context, where: 'url' });
    const kept = sealText('postgres://app:***@db2/app', { sealing: sealer, context, stored, where: 'url' });
    expect(openText(kept, sealer, context)).toBe('postgres://app:old@db2/app');
    const changed = sealText('postgres://app:new@db/app', { sealing: sealer, context, stored, where: 'url' });
    expect(openText(changed, sealer, context)).toBe('postgres://app:new@db/app');
  });

  it('refuses the mask where nothing is stored, saying what to do', () => {
    expect(() => sealText('postgres://app:***@db/app', { sealing: sealer, context, where: 'url' })).toThrow(
      CredentialWriteError,
    );
    expect(() => sealText('postgres://app:***@db/app', { sealing: sealer, context, where: 'url' })).toThrow(
      /url is '\*\*\*', which keeps a stored value, but this connection has none there; type the value itself/,
    );
  });

  it('leaves the $(username) and $(password) placeholders of service URLs alone', () => {
    const url = 'zulip://$(username):$(password)@chat.example.org/?stream=ops';
    expect(sealText(url, { sealing: sealer, context, where: 'url' })).toBe(url);
  });

  it('does not open a value sealed for another field', () => {
    const sealed = sealText('redis://:pw@cache:6379', { sealing: sealer, context, where: 'url' });
    expect(() => openText(sealed, sealer, 'connections:password')).toThrow(/belongs to another field/);
  });
});

describe('sealing whole credentials', () => {
  const options = { sealing: sealer, context: 'connections:password', where: 'password' };

  it('seals a value, keeps null, empty and references, and keeps the stored value for the mask', () => {
    const sealed = sealCredential('hunter2', options);
    expect(sealed).toMatch(/^sealed:v1:/);
    expect(sealer.open(sealed!, 'connections:password')).toBe('hunter2');
    expect(sealCredential(null, options)).toBeNull();
    expect(sealCredential('', options)).toBe('');
    expect(sealCredential(' secret://db/password ', options)).toBe('secret://db/password');
    expect(sealCredential('configmap://app/token', options)).toBe('configmap://app/token');
    expect(sealCredential('***', { ...options, stored: sealed })).toBe(sealed);
    expect(() => sealCredential('***', options)).toThrow(/password is '\*\*\*'/);
  });

  it('seals properties: credential-like keys whole, other values by place', () => {
    const sealed = sealProperties(
      { apiKey: 'k-123', region: 'eu-west-1', dsn: 'user=a password=b host=c', client_secret: 'secret://azure/secret' },
      { sealing: sealer },
    );
    expect(sealed.region).toBe('eu-west-1');
    expect(sealed.apiKey).toMatch(/^sealed:v1:/);
    expect(sealed.client_secret).toBe('secret://azure/secret');
    expect(sealed.dsn).toMatch(/^user=a password=sealed:v1:\S+ host=c$/);
    const kept = sealProperties(
      { apiKey: '***', dsn: 'user=a password=*** host=d' },
      { sealing: sealer, stored: sealed },
    );
    expect(kept.apiKey).toBe(sealed.apiKey);
    expect(openText(kept.dsn!, sealer, 'connections:properties')).toBe('user=a password=b host=d');
  });
});
