import type * as FastifyNamespace from 'fastify';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * The server's route table, read from Fastify itself so a new route cannot be forgotten.
 *
 * Fastify's supported way to see every route is an `onRoute` hook added before the routes are
 * registered. `buildApp` creates its Fastify instance internally, so a test file swaps the
 * `fastify` factory for one that adds the hook first:
 *
 * ```ts
 * vi.mock('fastify', async (importOriginal) =>
 *   (await import('./route-table')).withRouteCollector(await importOriginal()),
 * );
 * ```
 *
 * Every instance built in that test file then records its routes in `registeredRoutes`.
 */
export interface RegisteredRoute {
  method: string;
  url: string;
}

export const registeredRoutes: RegisteredRoute[] = [];

type FastifyModule = typeof FastifyNamespace;

export function withRouteCollector(actual: FastifyModule): FastifyModule {
  const original = actual.default as unknown as (options?: object) => FastifyInstance;
  const factory = (options?: object) => {
    const app = original(options);
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) registeredRoutes.push({ method, url: route.url });
    });
    return app;
  };
  return { ...actual, default: factory, fastify: factory } as unknown as FastifyModule;
}

/** `METHOD /path` keys, each once, sorted. */
export function routeKeys(routes: readonly RegisteredRoute[] = registeredRoutes): string[] {
  return [...new Set(routes.map((route) => `${route.method} ${route.url}`))].sort();
}

/**
 * The routes worth calling: HEAD routes are left out because Fastify adds one for every GET
 * (`exposeHeadRoutes`) running the GET's hooks and handler; `headWithoutGet` lists any HEAD
 * route that is not such a copy, so the caller can fail on it. There are no OPTIONS routes (no
 * CORS plugin): `optionsRoutes` lets the caller assert that.
 */
export function splitRoutes(routes: readonly RegisteredRoute[] = registeredRoutes) {
  const keys = routeKeys(routes);
  const gets = new Set(keys.filter((key) => key.startsWith('GET ')).map((key) => key.slice(4)));
  const heads = keys.filter((key) => key.startsWith('HEAD ')).map((key) => key.slice(5));
  return {
    callable: keys.filter((key) => !key.startsWith('HEAD ') && !key.startsWith('OPTIONS ')),
    // Fastify registers `/prefix` and `/prefix/` for a plugin's `/` route; either GET covers it.
    headWithoutGet: heads.filter(
      (url) => !gets.has(url) && !gets.has(`${url}/`) && !gets.has(url.replace(/\/$/, '')),
    ),
    optionsRoutes: keys.filter((key) => key.startsWith('OPTIONS ')),
  };
}

/** `/api/v1/users/:id/stats` with `{id: 'x'}` → `/api/v1/users/x/stats`; `*` takes `params['*']`. */
export function fillPath(url: string, params: Record<string, string> = {}): string {
  return url
    .replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`no value for :${name} in ${url}`);
      return encodeURIComponent(value);
    })
    .replace(/\*$/, () => params['*'] ?? 'anything');
}
