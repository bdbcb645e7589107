import { describe, expect, it } from 'vitest';
import { paginationQuerySchema, statusForErrorCode } from './api';

describe('statusForErrorCode', () => {
  it('maps the API.md codes to their statuses', () => {
    expect(statusForErrorCode('VALIDATION_ERROR')).toBe(400);
    expect(statusForErrorCode('UNAUTHENTICATED')).toBe(401);
    expect(statusForErrorCode('FORBIDDEN')).toBe(403);
    expect(statusForErrorCode('NOT_FOUND')).toBe(404);
    expect(statusForErrorCode('INVALID_TRANSITION')).toBe(409);
    expect(statusForErrorCode('PAYLOAD_TOO_LARGE')).toBe(413);
    expect(statusForErrorCode('UNSUPPORTED_MEDIA_TYPE')).toBe(415);
    expect(statusForErrorCode('RATE_LIMITED')).toBe(429);
  });

  it('treats an unknown code as a server error', () => {
    expect(statusForErrorCode('SOMETHING_ELSE')).toBe(500);
  });
});

describe('paginationQuerySchema', () => {
  it('defaults to page 1 of 20 and caps the page size at 100', () => {
    expect(paginationQuerySchema.parse({})).toEqual({ page: 1, pageSize: 20 });
    expect(paginationQuerySchema.parse({ page: '3', pageSize: '100' })).toEqual({
      page: 3,
      pageSize: 100,
    });
    expect(paginationQuerySchema.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(paginationQuerySchema.safeParse({ page: '0' }).success).toBe(false);
  });
});
