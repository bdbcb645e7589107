import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandlerPlugin } from '../../plugins/error-handler';
import { createTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { healthRoutes } from './health.routes';

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = await createTestApp();
});

afterAll(async () => {
  await subject?.close();
  await testDb?.close();
});

describe('GET /healthz', () => {
  it('reports the process is up', async () => {
    const res = await subject.app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { status: 'ok' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers HEAD without a body', async () => {
    const res = await subject.app.inject({ method: 'HEAD', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});

describe('GET /readyz', () => {
  it('reports ready when the database answers', async () => {
    const res = await subject.app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { status: 'ready' } });
  });

  it('answers 503 SERVICE_UNAVAILABLE when the database does not', async () => {
    const broken = await createTestApp({
      database: {
        ...testDb.database,
        ping: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')),
      },
    });
    try {
      const res = await broken.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        success: false,
        error: { code: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable.' },
      });
      expect(res.body).not.toContain('ECONNREFUSED');
      expect((await broken.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await broken.close();
    }
  });

  it('answers 503 when the database hangs', async () => {
    // The routes alone, to use a short timeout instead of waiting the real 3 s.
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(errorHandlerPlugin);
    await app.register(healthRoutes, {
      database: { ping: () => new Promise<void>(() => {}) },
      pingTimeoutMs: 50,
    });
    try {
      const res = await app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await app.close();
    }
  });
});
