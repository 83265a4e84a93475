import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './app-error.js';
import { registerErrorHandler } from './error-envelope.js';

async function appWithRoutes() {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  app.post(
    '/things',
    { schema: { body: z.object({ name: z.string().min(1).max(20), size: z.number().int() }) } },
    async (request) => ({ created: request.body.name }),
  );
  app.get('/conflict', async () => {
    throw new AppError(409, 'conflict', "Thing 'alpha' already exists");
  });
  app.get('/crash', async () => {
    throw new Error('connection string postgres://u:secret@db leaked');
  });
  await app.ready();
  return app;
}

describe('the error envelope', () => {
  it('keeps the status and wording of an AppError', async () => {
    const app = await appWithRoutes();
    const response = await app.inject({ method: 'GET', url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'conflict', message: "Thing 'alpha' already exists" },
      message: "Thing 'alpha' already exists",
    });
  });

  it('names each invalid field of a request body', async () => {
    const app = await appWithRoutes();
    const response = await app.inject({ method: 'POST', url: '/things', payload: { name: '', size: 1.5 } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error.code).toBe('validation_failed');
    expect(body.message).toContain('body.name');
    expect(body.message).toContain('body.size');
    expect(body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.name' }),
        expect.objectContaining({ field: 'body.size' }),
      ]),
    );
  });

  it('answers malformed JSON with a 400 that says so', async () => {
    const app = await appWithRoutes();
    const response = await app.inject({
      method: 'POST',
      url: '/things',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/JSON/i);
  });

  it('hides the details of an unexpected failure behind a generic 500', async () => {
    const app = await appWithRoutes();
    const response = await app.inject({ method: 'GET', url: '/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('internal_error');
    expect(response.body).not.toContain('secret');
  });
});
