import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { FEATURE_FLAG_DEFAULTS, type FeatureFlags } from '@bdms/shared';
import { AppProviders } from '../app/providers';
import { CONFIG_QUERY_KEY, normalizeConfig } from '../config/use-config';

export interface RenderOptions {
  /** The path the memory router starts at. */
  path?: string;
  /** Flags the config query answers with (the rest keep their defaults). */
  flags?: Partial<FeatureFlags>;
  supportEmail?: string;
  /** The config says the database holds demo data (the banner shows). */
  demoData?: boolean;
}

export function createTestQueryClient({
  flags,
  supportEmail,
  demoData,
}: RenderOptions = {}): QueryClient {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Infinity } },
  });
  queryClient.setQueryData(
    CONFIG_QUERY_KEY,
    normalizeConfig({
      flags: { ...FEATURE_FLAG_DEFAULTS, ...flags },
      supportEmail: supportEmail ?? 'support@example.org',
      demoData: demoData ?? false,
    }),
  );
  return queryClient;
}

/** Renders a route tree (e.g. the app's own routes) inside the app's providers. */
export function renderRoutes(routes: RouteObject[], options: RenderOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [options.path ?? '/'] });
  const queryClient = createTestQueryClient(options);
  const result = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}

/** Renders one element at `path` inside the app's providers. */
export function renderWithApp(element: ReactElement, options: RenderOptions = {}) {
  return renderRoutes([{ path: options.path ?? '/', element }], options);
}
