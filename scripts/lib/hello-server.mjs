// The ceiling for throughput figures: Fastify with nothing but a hello route.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
// The same, with a reply of n bytes: what a bare server does with a reply the size of a measured one.
const bodies = new Map();
app.get('/bytes/:n', async (request, reply) => {
  const n = Math.min(Math.max(Number(request.params.n) || 0, 16), 1_000_000);
  if (!bodies.has(n)) bodies.set(n, JSON.stringify({ data: 'x'.repeat(n - 11) }));
  return reply.type('application/json; charset=utf-8').send(bodies.get(n));
});
await app.listen({ port: Number(process.env.PORT ?? 3299), host: '127.0.0.1' });
