import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SignedInUser } from '../donor-helpers';
import { RULES, TABLE, type Call, type Expectation, type Rule } from './access-table';
import { leaksIn } from './privacy';
import { fillPath, registeredRoutes, splitRoutes } from './route-table';
import { createWorld, ROLES, type Role, type World } from './world';

// Records every route the app registers (see route-table.ts).
vi.mock('fastify', async (importOriginal) =>
  (await import('./route-table')).withRouteCollector(await importOriginal()),
);

/**
 * Issue #9, "Authorisation matrix": every route the server registers, called as each role, must
 * answer as access-table.ts declares; a registered route missing from the table fails the first
 * test with its name. Issue #14, "privacy matrix": each reply is searched for the cast's personal
 * values (privacy.ts) and fails naming the route, the caller and the field that carried one the
 * caller may not receive.
 */
let world: World;

beforeAll(async () => {
  world = await createWorld();
});

afterAll(async () => {
  await world?.close();
});

function inject(key: string, call: Call, caller: SignedInUser | null, method?: string) {
  const [routeMethod, url] = key.split(' ') as [string, string];
  const query = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
  return world.app.inject({
    method: (method ?? routeMethod) as 'GET',
    url: fillPath(url, call.params) + query,
    headers: { ...(caller?.headers ?? {}), ...(call.headers ?? {}) },
    remoteAddress: world.nextAddress(),
    ...(call.payload !== undefined ? { payload: call.payload } : {}),
  });
}

function check(role: Role, expected: Expectation, rule: Rule, res: LightMyRequestResponse) {
  const label = `${role} expected ${expected}, got ${res.statusCode}: ${res.body.slice(0, 300)}`;
  if (expected === 'allow') {
    const ok = (res.statusCode >= 200 && res.statusCode < 300) || rule.ok?.includes(res.statusCode);
    expect(ok, label).toBe(true);
    return;
  }
  const status = expected === 'hidden' ? 404 : role === 'anonymous' ? 401 : 403;
  const code = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' }[status];
  expect(res.statusCode, label).toBe(status);
  expect(res.json(), label).toMatchObject({ success: false, error: { code } });
}

describe('authorisation matrix', () => {
  it('declares every route the server registers, and only those', () => {
    const { callable, headWithoutGet, optionsRoutes } = splitRoutes(registeredRoutes);
    expect(registeredRoutes.length).toBeGreaterThan(50);
    const declared = Object.keys(TABLE);
    const missing = callable.filter((key) => !declared.includes(key));
    const stale = declared.filter((key) => !callable.includes(key));
    expect(missing, 'routes missing from the authorisation table').toEqual([]);
    expect(stale, 'table entries for routes the server no longer has').toEqual([]);
    expect(headWithoutGet, 'HEAD routes that are not the automatic copy of a GET').toEqual([]);
    expect(optionsRoutes).toEqual([]);
  });

  it.each(
    RULES.map(
      ({ key, rule }) => [`${key}${rule.variant ? ` (${rule.variant})` : ''}`, key, rule] as const,
    ),
  )('%s', async (_name, key, rule) => {
    for (const role of ROLES) {
      const call = (await rule.call?.(world, role)) ?? {};
      const caller = role === 'anonymous' ? null : (call.as ?? world.callers[role]);
      const res = await inject(key, call, caller);
      check(role, rule.access[role], rule, res);
      // The privacy matrix: whatever the status, no reply carries what the caller may not see.
      expect(leaksIn(res.body, role, key, world.secrets), 'personal data in the reply').toEqual([]);
      // The automatic HEAD route runs the GET's hooks: it must refuse the same callers.
      if (key.startsWith('GET ') && rule.access[role] !== 'allow') {
        const head = await inject(key, call, caller, 'HEAD');
        expect(head.statusCode, `HEAD as ${role}`).toBe(res.statusCode);
      }
    }
  });
});
