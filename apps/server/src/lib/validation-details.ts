/** The shape of Fastify's `error.validation` items (zod issues converted by the type provider). */
export interface ValidationItem {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const CONTEXT_NAMES: Record<string, string> = { querystring: 'query' };

/** `[{path: 'body.email', message}]`, as API.md asks for VALIDATION_ERROR. */
export function validationDetails(items: readonly ValidationItem[], context = 'body') {
  const prefix = CONTEXT_NAMES[context] ?? context;
  return items.flatMap((item) => {
    const segments = (item.instancePath ?? '').split('/').filter(Boolean);
    const base = [prefix, ...segments].join('.');
    const message = item.message ?? 'Invalid value';
    // zod reports unknown keys on the parent object; point at each key instead.
    const keys = item.params?.keys;
    if (Array.isArray(keys) && keys.length > 0) {
      return keys.map((key) => ({ path: `${base}.${String(key)}`, message: 'Unknown field' }));
    }
    return [{ path: base, message }];
  });
}
