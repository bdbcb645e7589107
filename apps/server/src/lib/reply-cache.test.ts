import { successEnvelope } from '@bdms/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { weakEtag } from './http-cache';
import { cacheKey, cachedBody, createReplyCache, toCachedReply } from './reply-cache';

describe('createReplyCache', () => {
  it('computes once per key and returns the same data and ETag on a hit', async () => {
    const cache = createReplyCache<{ n: number }>({ max: 10 });
    let calls = 0;
    const compute = async () => ({ n: ++calls });
    const first = await cache.get('a', compute);
    const second = await cache.get('a', compute);
    expect(calls).toBe(1);
    expect(second).toBe(first);
    expect(first.data).toEqual({ n: 1 });
    expect(first.etag).toBe(weakEtag({ n: 1 }));
  });

  it('shares a computation in progress between callers', async () => {
    const cache = createReplyCache<number>({ max: 10 });
    let calls = 0;
    let finish: (value: number) => void = () => undefined;
    const compute = () => {
      calls += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    };
    const both = Promise.all([cache.get('k', compute), cache.get('k', compute)]);
    finish(7);
    const [a, b] = await both;
    expect(calls).toBe(1);
    expect(a.data).toBe(7);
    expect(b).toBe(a);
  });

  it('keeps at most `max` entries, dropping the least recently used', async () => {
    const cache = createReplyCache<string>({ max: 3 });
    let calls = 0;
    const compute = (key: string) => async () => {
      calls += 1;
      return key;
    };
    for (const key of ['a', 'b', 'c']) await cache.get(key, compute(key));
    await cache.get('a', compute('a')); // a is now the most recently used
    await cache.get('d', compute('d')); // evicts b
    expect(cache.size).toBe(3);
    expect(calls).toBe(4);
    await cache.get('a', compute('a'));
    await cache.get('c', compute('c'));
    expect(calls).toBe(4);
    await cache.get('b', compute('b'));
    expect(calls).toBe(5);
    expect(cache.size).toBe(3);
    for (let i = 0; i < 100; i += 1) await cache.get(`x${i}`, compute(`x${i}`));
    expect(cache.size).toBe(3);
  });

  it('computes again after the TTL', async () => {
    let clock = 1_000;
    const cache = createReplyCache<number>({ max: 10, ttlMs: 30_000, now: () => clock });
    let calls = 0;
    const compute = async () => ++calls;
    await cache.get('k', compute);
    clock += 29_999;
    expect((await cache.get('k', compute)).data).toBe(1);
    clock += 1;
    expect((await cache.get('k', compute)).data).toBe(2);
  });

  it('does not keep failures', async () => {
    const cache = createReplyCache<number>({ max: 10 });
    await expect(
      cache.get('k', async () => {
        throw new Error('down');
      }),
    ).rejects.toThrow('down');
    expect(cache.size).toBe(0);
    expect((await cache.get('k', async () => 3)).data).toBe(3);
  });

  it('forgets everything on clear, including a computation that was running', async () => {
    const cache = createReplyCache<string>({ max: 10 });
    await cache.get('a', async () => 'old');
    let finish: (value: string) => void = () => undefined;
    const running = cache.get('b', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    expect(cache.size).toBe(0);
    finish('stale');
    expect((await running).data).toBe('stale');
    expect((await cache.get('a', async () => 'new')).data).toBe('new');
    expect((await cache.get('b', async () => 'fresh')).data).toBe('fresh');
  });
});

describe('cacheKey and cachedBody', () => {
  it('ignores field order and undefined fields', () => {
    expect(cacheKey({ b: 2, a: 'x', c: undefined })).toBe(cacheKey({ a: 'x', b: 2 }));
    expect(cacheKey({ a: 'x' })).not.toBe(cacheKey({ a: 'y' }));
  });

  it('serialises the envelope once, as the route schema encodes it', () => {
    const schema = successEnvelope(z.object({ n: z.number() }));
    const entry = toCachedReply({ n: 1, extra: 'dropped' });
    const body = cachedBody(entry, schema);
    expect(JSON.parse(body.toString('utf8'))).toEqual({ success: true, data: { n: 1 } });
    expect(cachedBody(entry, schema)).toBe(body);
  });
});
