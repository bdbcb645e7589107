import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyChildLoggerFactory, loggerOptions, redactUrl } from './logger';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(loggerOptions({ logLevel: 'info' }), {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return { logger, lines };
}

describe('log redaction', () => {
  it('hides secrets and contact details at the top level and nested', () => {
    const { logger, lines } = capture();
    logger.info(
      {
        password: 'p1',
        token: 't1',
        email: 'e1@example.org',
        body: { newPassword: 'p2', refreshToken: 'r1', phone: '+919876543210', code: '123456' },
        request: {
          contact: { contactPhone: '+911234567890', contactEmail: 'c@example.org', otp: '654321' },
        },
        user: { profile: { details: { phoneNumber: '+910000000000' } } },
        req: { headers: { authorization: 'Bearer abc', cookie: 'sid=1' } },
      },
      'something happened',
    );
    const text = JSON.stringify(lines);
    for (const secret of [
      'p1',
      't1',
      'e1@example.org',
      'p2',
      'r1',
      '+919876543210',
      '123456',
      '+911234567890',
      'c@example.org',
      '654321',
      '+910000000000',
      'Bearer abc',
      'sid=1',
    ]) {
      expect(text).not.toContain(`"${secret}"`);
    }
    expect(lines[0]?.msg).toBe('something happened');
    expect((lines[0]?.body as Record<string, unknown>).newPassword).toBe('[redacted]');
  });

  it('keeps ordinary fields', () => {
    const { logger, lines } = capture();
    logger.info({ bloodType: 'O+', status: 'pending' }, 'ok');
    expect(lines[0]).toMatchObject({ bloodType: 'O+', status: 'pending' });
  });
});

describe('redactUrl', () => {
  it('blanks sensitive query values and keeps the rest', () => {
    expect(redactUrl('/reset-password?token=abc&lang=hi')).toBe(
      '/reset-password?token=[redacted]&lang=hi',
    );
    expect(redactUrl('/api/v1/admin/donors?q=Ravi&status=pending&EMAIL=a%40b.c')).toBe(
      '/api/v1/admin/donors?q=[redacted]&status=pending&EMAIL=[redacted]',
    );
  });

  it('leaves URLs without a query alone', () => {
    expect(redactUrl('/api/v1/config')).toBe('/api/v1/config');
  });
});

describe('request loggers', () => {
  it('log what a pino child logs: the request id, with redaction', () => {
    const { logger, lines } = capture();
    const child = lazyChildLoggerFactory(logger, { reqId: 'req-1' }, {});
    child.info({ password: 'p1' }, 'incoming request');
    child.error({ err: new Error('boom') }, 'failed');
    expect(lines).toMatchObject([
      { reqId: 'req-1', password: '[redacted]', msg: 'incoming request', level: 30 },
      { reqId: 'req-1', msg: 'failed', level: 50, err: { message: 'boom' } },
    ]);
    expect(child.child({ userId: 'u1' }).level).toBe('info');
  });

  it('make no pino child while nothing is logged at an enabled level', () => {
    const { logger, lines } = capture();
    logger.level = 'warn';
    const makeChild = vi.spyOn(logger, 'child');
    const child = lazyChildLoggerFactory(logger, { reqId: 'req-2' }, {});
    child.info('incoming request');
    child.debug('details');
    expect(makeChild).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
    child.warn('slow');
    expect(makeChild).toHaveBeenCalledTimes(1);
    child.warn('slower');
    expect(makeChild).toHaveBeenCalledTimes(1);
    expect(lines).toMatchObject([
      { reqId: 'req-2', msg: 'slow' },
      { reqId: 'req-2', msg: 'slower' },
    ]);
  });
});
