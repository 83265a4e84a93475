import type { FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { memoizePerRequest } from './access-service.js';

const request = () => ({ id: 'req' }) as unknown as FastifyRequest;

describe('memoizePerRequest', () => {
  it('resolves once per request, whoever asks, and again for the next request', async () => {
    const resolve = vi.fn(async () => ['admin']);
    const rolesOf = memoizePerRequest(resolve);
    const first = request();
    expect(await rolesOf(first)).toEqual(['admin']);
    expect(await rolesOf(first)).toEqual(['admin']);
    expect(resolve).toHaveBeenCalledTimes(1);
    await rolesOf(request());
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  it('keeps each memo apart on the same request', async () => {
    const sessionOf = memoizePerRequest(async () => ({ identityId: 'p1' }));
    const rolesOf = memoizePerRequest(async () => ['viewer']);
    const one = request();
    expect(await sessionOf(one)).toEqual({ identityId: 'p1' });
    expect(await rolesOf(one)).toEqual(['viewer']);
  });

  it('hands every caller the same refusal when the lookup fails', async () => {
    const resolve = vi.fn(async () => {
      throw new Error('session store away');
    });
    const rolesOf = memoizePerRequest(resolve);
    const one = request();
    await expect(rolesOf(one)).rejects.toThrow('session store away');
    await expect(rolesOf(one)).rejects.toThrow('session store away');
    expect(resolve).toHaveBeenCalledTimes(1);
  });
});
