import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as encodingCompiler } from 'fastify-type-provider-zod';
import { $ZodType, safeParse } from 'zod/v4/core';

/**
 * The reply serialiser (issue #20).
 *
 * fastify-type-provider-zod writes a reply with zod's backward direction (`safeEncode`), so that
 * codecs encode. Backward, every schema that has checks is run twice: a canary pass without the
 * checks, then the checks and the parse again. A signed-in read spent about a quarter of the
 * server's CPU there (a CPU profile, then the same load with a forward parse: 10,400 → 13,800
 * `/auth/me` a second on this machine).
 *
 * A schema built only of types that read the same both ways (objects, arrays, unions, strings,
 * enums, nullable, optional…) gives the same value forward as backward: the same keys kept and
 * every unknown key dropped (what keeps an e-mail or a phone out of a reply that does not
 * declare it), the same checks. Such a schema is parsed forward, once. A schema with anything
 * directional in it (a transform, a pipe or codec, a default, a catch) keeps the backward
 * encode. A forward parse that fails goes to the backward encode too, so a reply that does not
 * fit its schema fails (or passes) exactly as it did.
 *
 * With `check` (the test suites: `CHECK_REPLIES=1`), every reply is also encoded the
 * library's way and the two texts must be identical, or the reply fails.
 */
export function replySerializerCompiler(
  options: {
    check?: boolean;
    /** The backward encode (the library's; a test gives its own to prove the check). */
    encoding?: FastifySerializerCompiler<unknown>;
  } = {},
): FastifySerializerCompiler<unknown> {
  const check = options.check ?? false;
  const encoding = options.encoding ?? (encodingCompiler as FastifySerializerCompiler<unknown>);
  return (route) => {
    const encode = encoding(route);
    const schema = zodSchemaOf(route.schema);
    if (!schema || !readsTheSameBothWays(schema)) return encode;
    return (data: unknown) => {
      const parsed = safeParse(schema, data);
      if (!parsed.success) return encode(data);
      const text = JSON.stringify(parsed.data);
      if (check) {
        const encoded = encode(data);
        if (encoded !== text) {
          throw new Error(
            `${route.method} ${route.url}: the forward parse wrote ${text}, the encode ${encoded}`,
          );
        }
      }
      return text;
    };
  };
}

function zodSchemaOf(schema: unknown): $ZodType | null {
  if (schema instanceof $ZodType) return schema;
  if (typeof schema === 'object' && schema !== null && 'properties' in schema) {
    const { properties } = schema as { properties: unknown };
    if (properties instanceof $ZodType) return properties;
  }
  return null;
}

/** Types with nothing directional in them: forward and backward give the same value. */
const PLAIN = new Set([
  'string',
  'number',
  'int',
  'boolean',
  'bigint',
  'symbol',
  'null',
  'undefined',
  'void',
  'never',
  'any',
  'unknown',
  'date',
  'nan',
  'literal',
  'enum',
  'template_literal',
  'file',
  'custom',
]);

/** Whether `schema` reads the same forward and backward (see replySerializerCompiler). */
export function readsTheSameBothWays(schema: $ZodType, seen: Set<$ZodType> = new Set()): boolean {
  if (seen.has(schema)) return true;
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const all = (schemas: readonly unknown[]) =>
    schemas.every((inner) => inner instanceof $ZodType && readsTheSameBothWays(inner, seen));
  switch (def.type) {
    case 'object':
      return (
        all(Object.values(def.shape as Record<string, unknown>)) &&
        (def.catchall === undefined || all([def.catchall]))
      );
    case 'array':
    case 'set':
      return all([def.type === 'array' ? def.element : def.valueType]);
    case 'tuple':
      return all(def.items as unknown[]) && (def.rest == null || all([def.rest]));
    case 'record':
    case 'map':
      return all([def.keyType, def.valueType]);
    case 'union':
      return all(def.options as unknown[]);
    case 'intersection':
      return all([def.left, def.right]);
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'nonoptional':
      return all([def.innerType]);
    case 'lazy':
      return all([(def.getter as () => unknown)()]);
    default:
      // transform, pipe (codecs, preprocess), default, prefault, catch, success, promise,
      // function, and any type this list does not know yet.
      return PLAIN.has(def.type);
  }
}
