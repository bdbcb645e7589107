import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Small replies are not worth the CPU; br first for browsers, gzip for everything else.
export const compressionPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(compress, { global: true, encodings: ['br', 'gzip'], threshold: 1024 });
  },
  { name: 'bdms-compression' },
);
