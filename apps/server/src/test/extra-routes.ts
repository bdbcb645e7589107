import { successEnvelope } from '@bdms/shared';
import { z } from 'zod';
import type { App } from '../app';
import { AppError } from '../lib/app-error';

/** Routes that exist only in tests, to drive the error handler and the rate limiter. */
export function registerTestRoutes(app: App): void {
  app.post(
    '/api/v1/test/echo',
    {
      schema: {
        body: z.object({ email: z.email(), age: z.number().int().min(18) }).strict(),
        querystring: z.object({ page: z.coerce.number().int().min(1).default(1) }),
      },
    },
    async (request) => ({ success: true, data: { body: request.body, page: request.query.page } }),
  );
  app.get('/api/v1/test/boom', async () => {
    throw new Error('relation "users" does not exist: select password_hash from users');
  });
  app.get('/api/v1/test/app-error', async () => {
    throw new AppError('EMAIL_TAKEN', 'That e-mail address is already registered', [
      { path: 'body.email', message: 'Already registered' },
    ]);
  });
  app.get('/api/v1/test/status-406', async () => {
    throw Object.assign(new Error('Not acceptable'), { statusCode: 406 });
  });
  app.get(
    '/api/v1/test/limited',
    { config: { rateLimit: { max: 2, timeWindow: '1 minute' } } },
    async () => ({
      success: true,
      data: { ok: true },
    }),
  );
  app.get(
    '/api/v1/test/bad-response',
    { schema: { response: { 200: successEnvelope(z.object({ count: z.number() })) } } },
    // Deliberately wrong shape: the serializer must refuse it without leaking details.
    async () => ({ success: true as const, data: { count: 'many' as unknown as number } }),
  );
  app.get('/api/v1/test/large', async () => ({
    success: true,
    data: { text: 'blood donation '.repeat(400) },
  }));
}
