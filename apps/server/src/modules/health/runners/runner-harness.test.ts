import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { applyExpressions, CheckFailure, createRunContext, resolveValue, runProbe } from './runner-harness.js';
import type { SecretResolver } from './runner-types.js';

const noSecrets: SecretResolver = () => Promise.reject(new Error('no secrets here'));

describe('applyExpressions', () => {
  const passed = { pass: true, message: '200 OK in 5 ms', celVariables: { code: 200, json: { status: 'down' } } };

  it('keeps a pass when the test returns true, and lets display write the message', () => {
    expect(
      applyExpressions({ test: { expr: 'code == 200' }, display: { expr: '"status " + json.status' } }, passed),
    ).toEqual({
      pass: true,
      message: 'status down',
    });
  });

  it('fails when the test returns false and says which test', () => {
    expect(applyExpressions({ test: { expr: 'json.status == "up"' } }, passed)).toEqual({
      pass: false,
      message: 'test `json.status == "up"` returned false; 200 OK in 5 ms',
    });
  });

  it('fails on a test that does not return a boolean or cannot be evaluated', () => {
    expect(applyExpressions({ test: { expr: 'code' } }, passed)).toMatchObject({
      pass: false,
      message: 'test expression must return true or false, got double',
    });
    expect(applyExpressions({ test: { expr: 'json.nope' } }, passed)).toMatchObject({
      pass: false,
      message: 'test expression failed: No such key: nope',
    });
  });

  it('appends display to the reason of a failed check', () => {
    const failed = { ...passed, pass: false, message: 'expected status 200, got 503' };
    expect(applyExpressions({ display: { expr: '"status " + json.status' } }, failed).message).toBe(
      'expected status 200, got 503; status down',
    );
  });

  it('returns transform results as a list, from a list, a map or JSON text', () => {
    expect(applyExpressions({ transform: { expr: '[{"name": "a", "pass": true}]' } }, passed).transformed).toEqual([
      { name: 'a', pass: true },
    ]);
    expect(applyExpressions({ transform: { expr: '{"name": "a"}' } }, passed).transformed).toEqual([{ name: 'a' }]);
    expect(applyExpressions({ transform: { expr: '\'[{"name": "b"}]\'' } }, passed).transformed).toEqual([
      { name: 'b' },
    ]);
    expect(applyExpressions({ transform: { expr: '42' } }, passed)).toMatchObject({
      pass: false,
      message: 'transform expression failed: transform must return a list or a map, got int',
    });
  });

  it('skips expressions when the probe saw nothing to evaluate', () => {
    const unreachable = { pass: false, message: 'could not reach http://x/: connection refused' };
    expect(applyExpressions({ test: { expr: 'code == 200' } }, unreachable)).toEqual(unreachable);
  });
});

describe('runProbe', () => {
  it('fails with "timed out after N ms" when the probe outlives its budget, even if it ignores the signal', async () => {
    const context = createRunContext({ timeoutMs: 50, resolveSecret: noSecrets });
    const result = await runProbe({}, context, () => new Promise(() => undefined));
    expect(result).toMatchObject({ pass: false, message: 'timed out after 50 ms', error: 'timed out after 50 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(40);
  });

  it('says the run was cancelled when the caller aborts', async () => {
    const controller = new AbortController();
    const context = createRunContext({ timeoutMs: 5000, resolveSecret: noSecrets, signal: controller.signal });
    const pending = runProbe({}, context, () => new Promise(() => undefined));
    controller.abort(new Error('server shutting down'));
    expect(await pending).toMatchObject({ pass: false, message: 'cancelled before it finished: server shutting down' });
  });

  it('turns thrown errors into failed results instead of throwing', async () => {
    const context = createRunContext({ timeoutMs: 1000, resolveSecret: noSecrets });
    expect(
      await runProbe({}, context, () => Promise.reject(new CheckFailure('disk is full', { error: 'ENOSPC' }))),
    ).toMatchObject({ pass: false, message: 'disk is full', error: 'ENOSPC' });
    expect(await runProbe({}, context, () => Promise.reject(new Error('boom')))).toMatchObject({
      pass: false,
      message: 'check failed: boom',
      error: 'boom',
    });
  });

  it('uses the duration the probe measured when it reports one', async () => {
    const context = createRunContext({ timeoutMs: 1000, resolveSecret: noSecrets });
    expect(await runProbe({}, context, async () => ({ pass: true, message: 'ok', durationMs: 7 }))).toEqual({
      pass: true,
      message: 'ok',
      durationMs: 7,
    });
  });
});

describe('the time budget', () => {
  it('still times out a hung probe with a cancel signal after garbage collections', async () => {
    // The scheduler passes its own cancel signal; a budget combined with it must survive GC
    // (AbortSignal.any holds its sources weakly on Node 20, and a collected timeout never fires).
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const cancel = new AbortController();
    const context = createRunContext({ timeoutMs: 300, resolveSecret: noSecrets, signal: cancel.signal });
    const collecting = setInterval(gc, 20);
    try {
      const result = await runProbe({}, context, () => new Promise(() => undefined));
      expect(result).toMatchObject({ pass: false, message: 'timed out after 300 ms' });
    } finally {
      clearInterval(collecting);
    }
  });

  it('passes on a cancellation with its reason', async () => {
    const cancel = new AbortController();
    const context = createRunContext({ timeoutMs: 5000, resolveSecret: noSecrets, signal: cancel.signal });
    setTimeout(() => cancel.abort(new Error('Lookout is shutting down')), 20);
    const result = await runProbe({}, context, () => new Promise(() => undefined));
    expect(result.message).toBe('cancelled before it finished: Lookout is shutting down');
  });
});

describe('resolveValue', () => {
  it('returns static values and asks the resolver for references', async () => {
    const resolveSecret: SecretResolver = async (ref) => `${ref.secretKeyRef?.name}/${ref.secretKeyRef?.key}`;
    const context = createRunContext({ timeoutMs: 1000, resolveSecret });
    expect(await resolveValue({ value: 'plain' }, context, 'the password')).toBe('plain');
    expect(
      await resolveValue({ valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } }, context, 'the password'),
    ).toBe('db/password');
  });

  it('names the secret it could not read', async () => {
    const context = createRunContext({ timeoutMs: 1000, resolveSecret: noSecrets });
    await expect(
      resolveValue({ valueFrom: { configMapKeyRef: { name: 'app', key: 'url' } } }, context, 'the URL'),
    ).rejects.toThrow("could not read the URL from config map 'app' key 'url' (no secrets here)");
  });
});
