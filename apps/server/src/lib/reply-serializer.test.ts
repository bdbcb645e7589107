import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import {
  availabilitySchema,
  donationPageSchema,
  donorStatsSchema,
  notificationPageSchema,
  successEnvelope,
  userResultSchema,
} from '@bdms/shared';
import { readsTheSameBothWays, replySerializerCompiler } from './reply-serializer';

type Compiler = ReturnType<typeof replySerializerCompiler>;

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A server with one GET / route answering `reply` under the 200 schema `schema`. */
async function serve(compiler: Compiler, schema: $ZodType, reply: unknown) {
  const app = Fastify();
  apps.push(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(compiler);
  app.get('/', { schema: { response: { 200: schema } } }, async () => reply);
  return app.inject({ url: '/' });
}

/** The same reply through the library's own serialiser (the backward encode). */
function library(schema: $ZodType, reply: unknown) {
  return serve(serializerCompiler as Compiler, schema, reply);
}

const person = z.object({
  id: z.string().min(1),
  name: z.string().trim().max(80),
  bloodType: z.enum(['A+', 'O-']).nullable(),
  phone: z.string().optional(),
  tags: z.array(z.string()),
  hospital: z.union([z.object({ kind: z.literal('hospital'), name: z.string() }), z.null()]),
});

describe('the reply serialiser', () => {
  it('writes what the schema declares and nothing else, as the library does', async () => {
    const reply = {
      id: 'u1',
      name: 'Asha',
      bloodType: 'O-',
      tags: ['donor'],
      hospital: { kind: 'hospital', name: 'Gandhi', licence: 'secret' },
      // Not in the schema: never written.
      email: 'asha@example.org',
      passwordHash: '$argon2id$…',
    };
    const ours = await serve(replySerializerCompiler({ check: false }), person, reply);
    expect(ours.statusCode).toBe(200);
    expect(ours.json()).toEqual({
      id: 'u1',
      name: 'Asha',
      bloodType: 'O-',
      tags: ['donor'],
      hospital: { kind: 'hospital', name: 'Gandhi' },
    });
    expect(ours.body).not.toContain('asha@example.org');
    expect(ours.body).not.toContain('licence');
    expect(ours.body).toBe((await library(person, reply)).body);
  });

  it('fails a reply that does not fit its schema, as the library does', async () => {
    for (const reply of [
      { id: '', name: 'Asha', bloodType: null, tags: [], hospital: null },
      { id: 'u1', name: 'x'.repeat(81), bloodType: null, tags: [], hospital: null },
      { id: 'u1', name: 'Asha', bloodType: 'B+', tags: [], hospital: null },
      { name: 'Asha', bloodType: null, tags: [], hospital: null },
    ]) {
      const ours = await serve(replySerializerCompiler({ check: false }), person, reply);
      const theirs = await library(person, reply);
      expect(ours.statusCode).toBe(500);
      expect(ours.statusCode).toBe(theirs.statusCode);
      expect(ours.body).not.toContain('Asha');
    }
  });

  it('a reply schema with a codec is still encoded (a Date goes out as its ISO text)', async () => {
    const when = z.codec(z.iso.datetime(), z.date(), {
      decode: (text) => new Date(text),
      encode: (date) => date.toISOString(),
    });
    const schema = z.object({ at: when });
    expect(readsTheSameBothWays(schema)).toBe(false);
    const at = new Date('2026-11-26T18:30:00.000Z');
    const ours = await serve(replySerializerCompiler({ check: false }), schema, { at });
    expect(ours.statusCode).toBe(200);
    expect(ours.json()).toEqual({ at: '2026-11-26T18:30:00.000Z' });
  });

  it('a discriminated union without its tag goes to the encode, which tries each option', async () => {
    const schema = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a').optional(), a: z.string() }),
      z.object({ kind: z.literal('b'), b: z.number() }),
    ]);
    const reply = { a: 'only a' };
    const ours = await serve(replySerializerCompiler({ check: true }), schema, reply);
    const theirs = await library(schema, reply);
    expect(ours.statusCode).toBe(theirs.statusCode);
    expect(ours.body).toBe(theirs.body);
  });

  it('with the check on, a reply written differently by the two ways fails instead of going out', async () => {
    const different: Compiler = () => () => '{"different":true}';
    const asha = { id: 'u1', name: 'Asha', bloodType: null, tags: [], hospital: null };
    const [checked, unchecked] = await Promise.all(
      [true, false].map((check) =>
        serve(replySerializerCompiler({ check, encoding: different }), person, asha),
      ),
    );
    expect(checked!.statusCode).toBe(500);
    expect(checked!.json().message).toContain('the encode {"different":true}');
    // Without the check the forward text goes out: the check is what failed the one above.
    expect(unchecked!.statusCode).toBe(200);
    expect(unchecked!.json().name).toBe('Asha');
  });

  it('tells the schemas that read the same both ways from those that do not', () => {
    type Tree = { name: string; children: Tree[] };
    const tree: z.ZodType<Tree> = z.lazy(() =>
      z.object({ name: z.string(), children: z.array(tree) }),
    );
    for (const plain of [
      person,
      z.array(person).readonly(),
      z.record(z.string(), z.number().int()),
      z.tuple([z.string(), z.boolean()], z.number()),
      z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() })),
      z.object({ a: z.string() }).catchall(z.number()),
      tree,
    ]) {
      expect(readsTheSameBothWays(plain)).toBe(true);
    }
    for (const directional of [
      z.object({ a: z.string().transform((text) => text.length) }),
      z.object({ page: z.array(z.object({ n: z.number().default(1) })) }),
      z.object({ a: z.string().catch('none') }),
      z.object({ a: z.preprocess((value) => String(value), z.string()) }),
      z.object({ a: z.string().pipe(z.email()) }),
      z.union([z.string(), z.number().prefault(0)]),
      z.lazy(() => z.object({ a: z.iso.date().transform((text) => new Date(text)) })),
    ]) {
      expect(readsTheSameBothWays(directional)).toBe(false);
    }
  });

  it("the hot signed-in reads' reply schemas are parsed forward, once", () => {
    for (const schema of [
      userResultSchema,
      donorStatsSchema,
      donationPageSchema,
      availabilitySchema,
      notificationPageSchema,
    ]) {
      expect(readsTheSameBothWays(successEnvelope(schema))).toBe(true);
    }
  });
});
