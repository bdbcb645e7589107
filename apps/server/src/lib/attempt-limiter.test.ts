import { describe, expect, it } from 'vitest';
import { createAttemptLimiter } from './attempt-limiter';

function fakeClock(start = 1_000_000) {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
}

describe('createAttemptLimiter', () => {
  it('allows max attempts within the window, then asks to wait until the oldest leaves it', async () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 3, windowMs: 60_000, now: clock.now });
    await limiter.record('a');
    clock.advance(10_000);
    await limiter.record('a');
    clock.advance(10_000);
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
    await limiter.record('a');
    // The first attempt was 20 s ago; it leaves the 60 s window in 40 s.
    expect(await limiter.retryAfterSeconds('a')).toBe(40);
    clock.advance(39_999);
    expect(await limiter.retryAfterSeconds('a')).toBe(1);
    clock.advance(1);
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('slides: old attempts stop counting one by one', async () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 2, windowMs: 1000, now: clock.now });
    await limiter.record('a');
    clock.advance(500);
    await limiter.record('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(1);
    clock.advance(500);
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
    await limiter.record('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(1);
  });

  it('counts keys separately and forgets a key on reset', async () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 1, windowMs: 60_000, now: clock.now });
    await limiter.record('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(60);
    expect(await limiter.retryAfterSeconds('b')).toBe(0);
    await limiter.reset('a');
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('consume records only what it allows', async () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 2, windowMs: 60_000, now: clock.now });
    expect(await limiter.consume('a')).toBe(0);
    expect(await limiter.consume('a')).toBe(0);
    expect(await limiter.consume('a')).toBe(60);
    clock.advance(30_000);
    // The refused attempt was not recorded, so the wait does not grow.
    expect(await limiter.consume('a')).toBe(30);
    clock.advance(30_000);
    expect(await limiter.consume('a')).toBe(0);
  });

  it('drops expired keys and never tracks more than maxKeys', async () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 1, windowMs: 1000, now: clock.now, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await limiter.record(key);
    // 'a' was the least recently used and was forgotten.
    expect(await limiter.retryAfterSeconds('a')).toBe(0);
    expect(await limiter.retryAfterSeconds('d')).toBe(1);
    clock.advance(1000);
    expect(await limiter.retryAfterSeconds('d')).toBe(0);
  });
});
