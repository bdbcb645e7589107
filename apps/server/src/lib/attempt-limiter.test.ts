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
  it('allows max attempts within the window, then asks to wait until the oldest leaves it', () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 3, windowMs: 60_000, now: clock.now });
    limiter.record('a');
    clock.advance(10_000);
    limiter.record('a');
    clock.advance(10_000);
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    limiter.record('a');
    // The first attempt was 20 s ago; it leaves the 60 s window in 40 s.
    expect(limiter.retryAfterSeconds('a')).toBe(40);
    clock.advance(39_999);
    expect(limiter.retryAfterSeconds('a')).toBe(1);
    clock.advance(1);
    expect(limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('slides: old attempts stop counting one by one', () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 2, windowMs: 1000, now: clock.now });
    limiter.record('a');
    clock.advance(500);
    limiter.record('a');
    expect(limiter.retryAfterSeconds('a')).toBe(1);
    clock.advance(500);
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    limiter.record('a');
    expect(limiter.retryAfterSeconds('a')).toBe(1);
  });

  it('counts keys separately and forgets a key on reset', () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 1, windowMs: 60_000, now: clock.now });
    limiter.record('a');
    expect(limiter.retryAfterSeconds('a')).toBe(60);
    expect(limiter.retryAfterSeconds('b')).toBe(0);
    limiter.reset('a');
    expect(limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('consume records only what it allows', () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 2, windowMs: 60_000, now: clock.now });
    expect(limiter.consume('a')).toBe(0);
    expect(limiter.consume('a')).toBe(0);
    expect(limiter.consume('a')).toBe(60);
    clock.advance(30_000);
    // The refused attempt was not recorded, so the wait does not grow.
    expect(limiter.consume('a')).toBe(30);
    clock.advance(30_000);
    expect(limiter.consume('a')).toBe(0);
  });

  it('drops expired keys and never tracks more than maxKeys', () => {
    const clock = fakeClock();
    const limiter = createAttemptLimiter({ max: 1, windowMs: 1000, now: clock.now, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) limiter.record(key);
    expect(limiter.size()).toBe(3);
    // 'a' was the least recently used and was forgotten.
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    expect(limiter.retryAfterSeconds('d')).toBe(1);
    clock.advance(1000);
    expect(limiter.retryAfterSeconds('d')).toBe(0);
    expect(limiter.size()).toBe(2);
  });
});
