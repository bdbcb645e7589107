import { describe, expect, it } from 'vitest';
import { accountKey, createBackoffLimiter } from './backoff-limiter';
import { findCredential } from './idempotency';
import { indiaDay, nextIndiaMidnight } from './daily-counters';

describe('createBackoffLimiter', () => {
  it('lets the free attempts through, then doubles the wait up to the maximum', async () => {
    let clock = 0;
    const limiter = createBackoffLimiter({
      freeAttempts: 2,
      baseMs: 10_000,
      maxMs: 40_000,
      forgetAfterMs: 3_600_000,
      now: () => clock,
    });
    expect(await limiter.consume('k')).toBe(0);
    expect(await limiter.consume('k')).toBe(0);
    expect(await limiter.consume('k')).toBe(10);
    clock += 10_000;
    expect(await limiter.consume('k')).toBe(0);
    expect(await limiter.consume('k')).toBe(20);
    clock += 20_000;
    expect(await limiter.consume('k')).toBe(0);
    expect(await limiter.consume('k')).toBe(40);
    clock += 40_000;
    expect(await limiter.consume('k')).toBe(0);
    // Capped at maxMs.
    expect(await limiter.consume('k')).toBe(40);
    // Other keys are unaffected; reset and a long pause start again.
    expect(await limiter.consume('other')).toBe(0);
    await limiter.reset('k');
    expect(await limiter.consume('k')).toBe(0);
    clock += 3_600_001;
    expect(await limiter.consume('other')).toBe(0);
  });

  it('forgets the least recently used keys beyond maxKeys', async () => {
    const limiter = createBackoffLimiter({
      freeAttempts: 1,
      baseMs: 1000,
      maxMs: 1000,
      forgetAfterMs: 60_000,
      maxKeys: 2,
    });
    for (const key of ['a', 'b', 'c']) await limiter.consume(key);
  });

  it('keys by client address and lower-cased account', async () => {
    expect(accountKey('203.0.113.1', 'Asha@Example.org')).toBe('203.0.113.1|asha@example.org');
    expect(accountKey(undefined, 'a@b.c')).toBe('unknown|a@b.c');
  });
});

describe('indiaDay', () => {
  it('is the calendar day in Asia/Kolkata (UTC+05:30)', async () => {
    expect(indiaDay(Date.parse('2026-11-20T18:29:59Z'))).toBe('2026-11-20');
    expect(indiaDay(Date.parse('2026-11-20T18:30:00Z'))).toBe('2026-11-21');
    expect(indiaDay(Date.parse('2026-11-20T23:59:00Z'))).toBe('2026-11-21');
    expect(nextIndiaMidnight(Date.parse('2026-11-20T20:00:00Z'))).toBe(
      Date.parse('2026-11-21T18:30:00Z'),
    );
  });
});

describe('findCredential', () => {
  it('finds tokens and passwords at any depth, and nothing in a plain reply', async () => {
    expect(findCredential({ user: { id: 'u' }, tokens: { accessToken: 'a' } })).toBe('.tokens');
    expect(findCredential({ items: [{ refreshToken: 'r' }] })).toBe('.items[0].refreshToken');
    expect(findCredential({ request: { id: 'r', trackingCode: 'BR-1' } })).toBeNull();
  });
});
