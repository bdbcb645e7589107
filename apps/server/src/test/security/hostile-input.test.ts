import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TABLE, type Call } from './access-table';
import {
  deeplyNested,
  expectSafeAnswer,
  PAGE_ROUTES,
  headerValue,
  hostileString,
  hostileValue,
  MALFORMED_JSON,
  ODD_CONTENT_TYPES,
} from './hostile';
import { registeredRoutes, splitRoutes } from './route-table';
import { createWorld, ROLES, type Role } from './world';

// Records every route the app registers (see route-table.ts).
vi.mock('fastify', async (importOriginal) =>
  (await import('./route-table')).withRouteCollector(await importOriginal()),
);

/**
 * Issue #9, "Hostile input": property-based tests (fast-check) that send every route the server
 * registers random and malformed path parameters, query strings, bodies and headers, starting
 * from a request the route would accept (access-table.ts) so the hostile part reaches the
 * handler, not just the validator. Every reply must pass `expectSafeReply` (hostile.ts).
 *
 * FUZZ_RUNS (default 12) sets the runs per route; on a failure fast-check prints the seed and
 * the path: FUZZ_SEED=<seed> (and FUZZ_PATH=<path>) replay it.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const PATH = process.env.FUZZ_PATH;
const ONE_MIB = 1024 * 1024;

const world = await createWorld();
afterAll(async () => {
  await world.close();
});

const routes = splitRoutes(registeredRoutes).callable;

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: object } }> };
}
const spec = world.app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };

/** Query and body field names the route documents, so the fuzzer aims at real fields too. */
function documentedFields(key: string) {
  const [method, url] = key.split(' ') as [string, string];
  const operation = spec.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
  const query = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const properties = operation?.requestBody?.content?.['application/json']?.schema?.properties;
  return { query, body: Object.keys(properties ?? {}) };
}

function paramNames(url: string): string[] {
  const names = [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
  return url.endsWith('*') ? [...names, '*'] : names;
}

/** Percent-encodes the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser sends it). */
function percentEncode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** As typed into a request line: printable ASCII left alone (invalid `%` escapes included). */
// (A backslash is left out: the test client's URL parser rejects it; raw-requests tests send it.)
const isRawSafe = (value: string) => /^[\x21-\x7e]*$/.test(value) && !/[?#\\]/.test(value);

/** A request the route accepts, from the authorisation table, and who may send it. */
async function baselineFor(key: string): Promise<{ call: Call; role: Role }> {
  const entry = TABLE[key];
  const rule = Array.isArray(entry) ? entry[0] : entry;
  if (!rule) return { call: {}, role: 'admin' };
  const preferred: Role[] = ['admin', 'approvedDonor', 'hospital', 'pendingDonor', 'anonymous'];
  const role = preferred.find((candidate) => rule.access[candidate] === 'allow') ?? 'admin';
  return { call: (await rule.call?.(world, role)) ?? {}, role };
}

const ALG_NONE_TOKEN =
  Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url') +
  '.' +
  Buffer.from(`{"sub":"${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}","ver":0}`).toString(
    'base64url',
  ) +
  '.';

const HEADER_NAMES = [
  'x-request-id',
  'accept',
  'accept-language',
  'accept-encoding',
  'if-none-match',
  'x-forwarded-for',
  'x-client-name',
  'x-client-version',
  'cookie',
  'range',
  'origin',
  'referer',
  'user-agent',
  'authorization',
] as const;

function mutationPlan(key: string, baselineRole: Role) {
  const [method, url] = key.split(' ') as [string, string];
  const params = paramNames(url);
  const fields = documentedFields(key);
  const hasBody = method !== 'GET';
  const caller = fc.oneof(
    { weight: 3, arbitrary: fc.constant(baselineRole as Role | 'garbage') },
    { weight: 2, arbitrary: fc.constantFrom<Role | 'garbage'>(...ROLES, 'garbage') },
  );
  const body = hasBody
    ? fc.oneof(
        { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
        {
          weight: 4,
          arbitrary: fc.record({
            kind: fc.constant('field' as const),
            field: fields.body.length
              ? fc.oneof(fc.constantFrom(...fields.body), hostileString)
              : hostileString,
            value: hostileValue,
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({ kind: fc.constant('replace' as const), value: hostileValue }),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('raw' as const),
            text: fc.constantFrom(...MALFORMED_JSON),
            contentType: fc.constant('application/json'),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('raw' as const),
            text: fc.oneof(hostileString, fc.constant('a=1&b=<script>')),
            contentType: fc.constantFrom(...ODD_CONTENT_TYPES),
          }),
        },
        {
          weight: 1,
          arbitrary: fc.record({
            kind: fc.constant('bytes' as const),
            bytes: fc.uint8Array({ maxLength: 256 }),
            contentType: fc.constantFrom('application/json', 'multipart/form-data; boundary=x'),
          }),
        },
      )
    : fc.constant({ kind: 'none' as const });
  return fc.record({
    caller,
    garbageToken: fc.oneof(fc.constant(ALG_NONE_TOKEN), headerValue),
    param: params.length
      ? fc.option(
          fc.record({
            name: fc.constantFrom(...params),
            value: hostileString,
            raw: fc.boolean(),
          }),
        )
      : fc.constant(null),
    query: fc.array(
      fc.record({
        key: fields.query.length
          ? fc.oneof(fc.constantFrom(...fields.query), hostileString)
          : hostileString,
        values: fc.array(hostileString, { minLength: 1, maxLength: 3 }),
      }),
      { maxLength: 3 },
    ),
    body,
    headers: fc.dictionary(fc.constantFrom(...HEADER_NAMES), headerValue, { maxKeys: 3 }),
  });
}

type Plan = ReturnType<typeof mutationPlan> extends fc.Arbitrary<infer T> ? T : never;

function buildRequest(key: string, baseline: { call: Call }, plan: Plan) {
  const [method, url] = key.split(' ') as [string, string];
  const { call } = baseline;
  const params = { ...call.params };
  let path = url;
  for (const name of paramNames(url)) {
    const isMutated = plan.param?.name === name;
    const value = isMutated ? plan.param!.value : (params[name] ?? 'x');
    const encoded = isMutated && plan.param!.raw && isRawSafe(value) ? value : percentEncode(value);
    path = name === '*' ? path.replace(/\*$/, encoded) : path.replace(`:${name}`, encoded);
  }
  const query = Object.entries(call.query ?? {}).map(
    ([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`,
  );
  for (const { key: name, values } of plan.query) {
    for (const value of values) query.push(`${percentEncode(name)}=${percentEncode(value)}`);
  }
  const headers: Record<string, string> = { ...(call.headers ?? {}) };
  const caller =
    plan.caller === 'garbage' || plan.caller === 'anonymous'
      ? null
      : plan.caller === 'approvedDonor' || call.asAnyCaller
        ? (call.as ?? world.callers[plan.caller])
        : world.callers[plan.caller];
  if (caller) Object.assign(headers, caller.headers);
  if (plan.caller === 'garbage') headers.authorization = `Bearer ${plan.garbageToken}`;
  Object.assign(headers, plan.headers);

  let payload: string | Buffer | object | undefined = call.payload;
  const body = plan.body;
  if (body.kind === 'field') {
    const base = payload && typeof payload === 'object' && !Buffer.isBuffer(payload) ? payload : {};
    payload = JSON.stringify({ ...base, [body.field]: body.value });
    headers['content-type'] = 'application/json';
  } else if (body.kind === 'replace') {
    payload = JSON.stringify(body.value);
    headers['content-type'] = 'application/json';
  } else if (body.kind === 'raw') {
    payload = body.text;
    headers['content-type'] = body.contentType;
  } else if (body.kind === 'bytes') {
    payload = Buffer.from(body.bytes);
    headers['content-type'] = body.contentType;
  }
  return {
    method: method as 'GET',
    url: path + (query.length ? `?${query.join('&')}` : ''),
    headers,
    remoteAddress: world.nextAddress(),
    ...(payload !== undefined ? { payload } : {}),
  };
}

describe('hostile input on every route', () => {
  it('covers the routes the server registers', () => {
    expect(routes.length).toBeGreaterThan(50);
  });

  it.each(routes)('%s', async (key) => {
    const baseline = await baselineFor(key);
    await fc.assert(
      fc.asyncProperty(mutationPlan(key, baseline.role), async (plan) => {
        const request = buildRequest(key, baseline, plan);
        const res = await world.app.inject(request);
        expectSafeAnswer(key, res, `${request.method} ${request.url.slice(0, 300)}`);
      }),
      {
        numRuns: RUNS,
        ...(SEED !== undefined ? { seed: SEED } : {}),
        ...(PATH ? { path: PATH } : {}),
        interruptAfterTimeLimit: 30_000,
      },
    );
  });
});

const bodyRoutes = routes.filter((key) => !key.startsWith('GET '));
const getRoutes = routes.filter((key) => key.startsWith('GET '));

describe('oversized and deeply nested input', () => {
  it.each(bodyRoutes)(
    '%s refuses a body over 1 MiB with 413, and survives one just under',
    async (key) => {
      const baseline = await baselineFor(key);
      const over = buildRequest(key, baseline, {
        caller: baseline.role,
        garbageToken: '',
        param: null,
        query: [],
        body: {
          kind: 'raw',
          text: JSON.stringify({ x: 'a'.repeat(ONE_MIB) }),
          contentType: 'application/json',
        },
        headers: {},
      });
      const tooBig = await world.app.inject(over);
      expectSafeAnswer(key, tooBig, `${key} with 1 MiB + 9 bytes`);
      expect(tooBig.statusCode).toBe(413);
      if (!PAGE_ROUTES.has(key)) expect(tooBig.json().error.code).toBe('PAYLOAD_TOO_LARGE');

      for (const text of [
        JSON.stringify({ x: '<script>'.repeat((ONE_MIB - 64) / 8) }),
        deeplyNested(100_000),
        deeplyNested(20_000, 'object'),
      ]) {
        const res = await world.app.inject(
          buildRequest(key, baseline, {
            caller: baseline.role,
            garbageToken: '',
            param: null,
            query: [],
            body: { kind: 'raw', text, contentType: 'application/json' },
            headers: {},
          }),
        );
        expectSafeAnswer(key, res, `${key} with ${text.slice(0, 20)}… (${text.length} bytes)`);
      }
    },
  );

  it.each(getRoutes)('%s survives a 256 KiB query string', async (key) => {
    const baseline = await baselineFor(key);
    const res = await world.app.inject(
      buildRequest(key, baseline, {
        caller: baseline.role,
        garbageToken: '',
        param: null,
        query: [
          { key: 'q', values: ['<script>'.repeat(16_384)] },
          { key: 'page', values: ['9'.repeat(100_000)] },
        ],
        body: { kind: 'none' },
        headers: {},
      }),
    );
    expectSafeAnswer(key, res, `${key} with a 256 KiB query`);
  });
});
