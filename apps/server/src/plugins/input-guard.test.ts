import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerTestRoutes } from '../test/extra-routes';
import { createTestApp, type TestApp } from '../test/test-app';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import { mapError } from './error-handler';
import { findNul, NUL_MESSAGE } from './input-guard';

let testDb: TestDatabase;
let subject: TestApp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  subject = await createTestApp({
    database: testDb.database,
    extraRoutes: registerTestRoutes,
    services: { backgroundJobs: false },
  });
});

afterAll(async () => {
  await subject?.close();
  await testDb?.close();
});

describe('NUL characters in requests', () => {
  it('finds the first string or key holding U+0000', () => {
    expect(findNul({ a: ['x', { b: 'y\u0000' }] }, 'body')).toBe('body.a.1.b');
    expect(findNul({ 'k\u0000': 1 }, 'body')).toBe('body');
    expect(findNul({ a: 'fine', n: 1, z: null }, 'body')).toBeNull();
  });

  it('refuses them in a body, a query or a path with 400 instead of reaching the database', async () => {
    const body = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { email: 'a\u0000@example.org', age: 30 },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().error).toEqual({
      code: 'VALIDATION_ERROR',
      message: NUL_MESSAGE,
      details: [{ path: 'body.email', message: NUL_MESSAGE }],
    });
    const register = await subject.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { fullName: 'A\u0000B' },
    });
    expect(register.statusCode).toBe(400);
    const query = await subject.app.inject({
      url: '/api/v1/test/echo?page=%00',
      method: 'POST',
      payload: { email: 'a@example.org', age: 30 },
    });
    expect(query.json().error.details).toEqual([{ path: 'query.page', message: NUL_MESSAGE }]);
    const path = await subject.app.inject({ url: '/api/v1/users/%00' });
    expect(path.statusCode).toBe(400);
  });

  it('maps a database refusal of a value to 400 as a last resort, without its words', () => {
    const error = Object.assign(new Error('Failed query: insert …'), {
      cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
        code: '22021',
      }),
    });
    expect(mapError(error)).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(mapError(error).message).not.toContain('UTF8');
    const other = Object.assign(new Error('x'), { cause: { code: '42P01' } });
    expect(mapError(other)).toMatchObject({ status: 500 });
  });
});
