import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';

export const NUL_MESSAGE = 'Remove the NUL character (\\u0000): it cannot be stored.';
const MAX_DEPTH = 32;

/** The path of the first string (value or key) holding U+0000, or null. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findNul(value[i], `${path}.${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return path;
    const found = findNul(child, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL in any input would reach the database as a 500.
 * It is never meaningful in this API, so every request carrying one in its params, query or
 * JSON body is refused up front with 400 VALIDATION_ERROR and the field's path.
 */
export const inputGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
      const found =
        findNul(request.params, 'params') ??
        findNul(request.query, 'query') ??
        findNul(request.body, 'body');
      if (!found) {
        done();
        return;
      }
      done(new AppError('VALIDATION_ERROR', NUL_MESSAGE, [{ path: found, message: NUL_MESSAGE }]));
    });
  },
  { name: 'bdms-input-guard' },
);
