import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { MICRO_CACHE_MS, microCachePlugin } from './micro-cache';

async function appWithCounter() {
  let time = 1_000_000;
  const calls = { read: 0, other: 0 };
  const app = Fastify({ logger: false });
  await app.register(microCachePlugin, { now: () => time });
  app.get('/read', { config: { microCache: true } }, async (request, reply) => {
    calls.read += 1;
    const { q = '' } = request.query as { q?: string };
    if (q === 'missing') return reply.code(404).send({ error: 'nope' });
    return reply
      .header('cache-control', 'public, max-age=60')
      .header('etag', `W/"v${calls.read}"`)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ q, call: calls.read }));
  });
  app.get('/private', async (_request, reply) => {
    calls.other += 1;
    return reply
      .header('etag', 'W/"p"')
      .header('cache-control', 'no-store')
      .send({ n: calls.other });
  });
  app.post('/write', async () => ({ ok: true }));
  app.post('/refused', async (_request, reply) => reply.code(400).send({ error: 'bad' }));
  return { app, calls, advance: (ms: number) => (time += ms) };
}

describe('micro-cache', () => {
  it('neither stores nor serves a reply to a request carrying credentials', async () => {
    const { app, calls } = await appWithCounter();
    const signedIn = { authorization: 'Bearer someone' };
    const first = await app.inject({ url: '/read?q=s', headers: signedIn });
    // Not stored: the anonymous caller gets a reply computed for them.
    const anonymous = await app.inject({ url: '/read?q=s' });
    expect(calls.read).toBe(2);
    expect(anonymous.json().call).toBe(2);
    // Kept for anonymous callers, but not served to a signed-in one.
    const again = await app.inject({ url: '/read?q=s', headers: signedIn });
    expect(calls.read).toBe(3);
    expect(again.json().call).toBe(3);
    expect(first.json().call).toBe(1);
    const cookie = await app.inject({ url: '/read?q=s', headers: { cookie: 'sid=x' } });
    expect(cookie.json().call).toBe(4);
  });

  it('sends a public reply again without running its route, within a second', async () => {
    const { app, calls, advance } = await appWithCounter();
    const first = await app.inject({ url: '/read?q=a' });
    const second = await app.inject({ url: '/read?q=a' });
    expect(calls.read).toBe(1);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['cache-control']).toBe('public, max-age=60');
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    // The client's copy is current: 304.
    const again = await app.inject({
      url: '/read?q=a',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(calls.read).toBe(1);
    // Another query string is another reply.
    expect((await app.inject({ url: '/read?q=b' })).json()).toEqual({ q: 'b', call: 2 });
    // After a second, the route runs again.
    advance(MICRO_CACHE_MS);
    expect((await app.inject({ url: '/read?q=a' })).json()).toEqual({ q: 'a', call: 3 });
  });

  it('is emptied by a successful write, not by a refused one', async () => {
    const { app, calls } = await appWithCounter();
    await app.inject({ url: '/read' });
    await app.inject({ method: 'POST', url: '/refused' });
    await app.inject({ url: '/read' });
    expect(calls.read).toBe(1);
    await app.inject({ method: 'POST', url: '/write' });
    expect((await app.inject({ url: '/read' })).json()).toEqual({ q: '', call: 2 });
  });

  it('keeps neither errors nor routes that did not ask for it', async () => {
    const { app, calls } = await appWithCounter();
    await app.inject({ url: '/read?q=missing' });
    const missing = await app.inject({ url: '/read?q=missing' });
    expect(missing.statusCode).toBe(404);
    expect(calls.read).toBe(2);
    await app.inject({ url: '/private' });
    expect((await app.inject({ url: '/private' })).json()).toEqual({ n: 2 });
  });
});
