// The ceiling for throughput figures: Fastify with nothing but a hello route.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 3299), host: '127.0.0.1' });
